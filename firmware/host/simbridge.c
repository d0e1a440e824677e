/*
 * simbridge - run the real firmware ELF in simavr and give it a serial port.
 *
 *   simbridge [--speed X] [--tcs34725] FIRMWARE.elf
 *
 * The simulated ATmega328P's UART0 appears as a pty that pyserial opens like a
 * USB serial port (its path is the first line on stdout: "pty /dev/pts/N").
 * Tests drive the beam pins and the fake colour sensor with line commands on
 * stdin; every command is answered with one line on stdout:
 *
 *   block in|out | clear in|out      set the beam now              -> ok US
 *   pulse in|out DELAY_US WIDTH_US   block after DELAY for WIDTH   -> ok US (US = when it starts)
 *   pulse_at in|out AT_US WIDTH_US   block at simulated time AT    -> ok US | error (AT is past)
 *   colour R G B C                   what the fake TCS34725 reads  -> ok US
 *   time                             simulated time                -> time US
 *   pause | resume                   freeze the chip (it stops talking) -> ok US
 *   quit                             exit at once (also on end of stdin)
 *
 * Why not simavr's uart_pty part: in this simavr (1.6) its thread feeds the
 * UART from outside the simulation thread without a lock, and it never ends
 * (uart_pty_stop hangs). This bridge does the pty work in the simulation loop
 * itself: one thread, no races, and beam edges land on exact cycles. It still
 * leaves with _exit so nothing in libsimavr can hold it up.
 *
 * --speed 1 (the default) keeps simulated time in step with the wall clock, so
 * millis(), the 1 Hz heartbeat and the host's timeouts mean what they say;
 * --speed 0 runs flat out (about ten times faster than real time).
 * --tcs34725 attaches a fake colour sensor at I2C address 0x29.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include <simavr/avr_ioport.h>
#include <simavr/avr_twi.h>
#include <simavr/avr_uart.h>
#include <simavr/sim_avr.h>
#include <simavr/sim_elf.h>
#include <simavr/sim_irq.h>

#define FREQ 16000000UL
#define MAX_SCHEDULE 4096
#define OUT_CAP 65536

static avr_t *avr;
static avr_irq_t *beam_pin[2];  /* PD2 input slot, PD3 exit chute */
static avr_irq_t *uart_in;
static int pty_master = -1;
static int xon;

/* bytes from the chip to the pty */
static uint8_t out_buf[OUT_CAP];
static size_t out_len;
/* bytes from the pty to the chip */
static uint8_t in_buf[4096];
static size_t in_len, in_done;

struct change { avr_cycle_count_t at; int beam; int blocked; };
static struct change schedule[MAX_SCHEDULE];
static int n_sched;

static int paused;
static double speed = 1.0;
static struct timespec wall0;
static avr_cycle_count_t cycle0;

static uint16_t colour[4] = {0, 0, 0, 0}; /* C, R, G, B as the sensor's registers order them */

static void die(const char *what)
{
    fprintf(stderr, "simbridge: %s\n", what);
    fflush(stderr);
    _exit(2);
}

static uint64_t sim_us(void) { return avr->cycle / (FREQ / 1000000UL); }

static FILE *ctl; /* our answers; libsimavr's own chatter goes to stderr */

static void reply(const char *fmt, unsigned long long v)
{
    fprintf(ctl, fmt, v);
    fflush(ctl);
}

/* --- beams: the receiver pulls its output low while the beam is broken ------------ */

static void set_beam(int beam, int blocked)
{
    avr_raise_irq(beam_pin[beam], blocked ? 0 : 1);
}

static void schedule_change(avr_cycle_count_t at, int beam, int blocked)
{
    if (n_sched >= MAX_SCHEDULE)
        die("too many scheduled beam changes");
    int i = n_sched++;
    while (i > 0 && schedule[i - 1].at > at) { /* keep sorted; stable for equal times */
        schedule[i] = schedule[i - 1];
        i--;
    }
    schedule[i].at = at;
    schedule[i].beam = beam;
    schedule[i].blocked = blocked;
}

static void fire_due(void)
{
    int k = 0;
    while (k < n_sched && schedule[k].at <= avr->cycle) {
        set_beam(schedule[k].beam, schedule[k].blocked);
        k++;
    }
    if (k) {
        memmove(schedule, schedule + k, (size_t)(n_sched - k) * sizeof schedule[0]);
        n_sched -= k;
    }
}

/* --- UART <-> pty ------------------------------------------------------------------ */

static void uart_out_hook(struct avr_irq_t *irq, uint32_t value, void *param)
{
    (void)irq;
    (void)param;
    if (out_len < OUT_CAP)
        out_buf[out_len++] = (uint8_t)value;
    /* else: nobody has read for 64 KB; a real USB bridge would drop it too */
}

static void feed_uart(void)
{
    while (xon && in_done < in_len)
        avr_raise_irq(uart_in, in_buf[in_done++]);
    if (in_done == in_len)
        in_done = in_len = 0;
}

static void xon_hook(struct avr_irq_t *irq, uint32_t value, void *param)
{
    (void)irq; (void)value; (void)param;
    xon = 1;
    feed_uart();
}

static void xoff_hook(struct avr_irq_t *irq, uint32_t value, void *param)
{
    (void)irq; (void)value; (void)param;
    xon = 0;
}

static void service_pty(void)
{
    if (out_len) {
        ssize_t w = write(pty_master, out_buf, out_len);
        if (w > 0) {
            memmove(out_buf, out_buf + w, out_len - (size_t)w);
            out_len -= (size_t)w;
        } else if (w < 0 && errno == EIO) {
            out_len = 0; /* no one has the port open: the bytes go nowhere, as on a real cable */
        }
    }
    if (in_len == 0) {
        ssize_t r = read(pty_master, in_buf, sizeof in_buf);
        if (r > 0) {
            in_len = (size_t)r;
            in_done = 0;
        }
    }
    feed_uart();
}

/* --- a fake TCS34725 on the I2C bus --------------------------------------------------- */

static avr_irq_t *tcs_irq;
static uint8_t tcs_selected, tcs_reg, tcs_index, tcs_regs[0x20];

static uint8_t tcs_read_reg(uint8_t reg)
{
    if (reg >= 0x14 && reg <= 0x1B) {
        uint16_t v = colour[(reg - 0x14) / 2];
        return (reg & 1) ? (uint8_t)(v >> 8) : (uint8_t)v;
    }
    if (reg == 0x12)
        return 0x44; /* ID of a TCS34725 */
    if (reg == 0x13)
        return 0x01; /* STATUS: RGBC valid */
    return reg < sizeof tcs_regs ? tcs_regs[reg] : 0;
}

static void tcs_hook(struct avr_irq_t *irq, uint32_t value, void *param)
{
    (void)irq;
    (void)param;
    avr_twi_msg_irq_t v;
    v.u.v = value;
    if (v.u.twi.msg & TWI_COND_STOP)
        tcs_selected = 0;
    if (v.u.twi.msg & TWI_COND_START) {
        tcs_selected = 0;
        tcs_index = 0;
        if ((v.u.twi.addr >> 1) == 0x29) {
            tcs_selected = v.u.twi.addr;
            avr_raise_irq(tcs_irq + TWI_IRQ_INPUT, avr_twi_irq_msg(TWI_COND_ACK, tcs_selected, 1));
        }
    }
    if (!tcs_selected)
        return;
    if (v.u.twi.msg & TWI_COND_WRITE) {
        avr_raise_irq(tcs_irq + TWI_IRQ_INPUT, avr_twi_irq_msg(TWI_COND_ACK, tcs_selected, 1));
        if (tcs_index++ == 0)
            tcs_reg = v.u.twi.data & 0x1F; /* command byte: register address */
        else if (tcs_reg < sizeof tcs_regs)
            tcs_regs[tcs_reg++] = v.u.twi.data;
    }
    if (v.u.twi.msg & TWI_COND_READ) {
        uint8_t data = tcs_read_reg(tcs_reg);
        tcs_reg = (tcs_reg + 1) & 0x1F;
        avr_raise_irq(tcs_irq + TWI_IRQ_INPUT, avr_twi_irq_msg(TWI_COND_READ, tcs_selected, data));
    }
}

static void attach_tcs(void)
{
    static const char *names[2] = {"8>tcs.out", "32<tcs.in"};
    tcs_irq = avr_alloc_irq(&avr->irq_pool, 0, 2, names);
    avr_irq_register_notify(tcs_irq + TWI_IRQ_OUTPUT, tcs_hook, NULL);
    avr_connect_irq(tcs_irq + TWI_IRQ_INPUT, avr_io_getirq(avr, AVR_IOCTL_TWI_GETIRQ(0), TWI_IRQ_INPUT));
    avr_connect_irq(avr_io_getirq(avr, AVR_IOCTL_TWI_GETIRQ(0), TWI_IRQ_OUTPUT), tcs_irq + TWI_IRQ_OUTPUT);
}

/* --- commands ------------------------------------------------------------------------ */

static int beam_of(const char *s)
{
    if (s && !strcmp(s, "in"))
        return 0;
    if (s && !strcmp(s, "out"))
        return 1;
    return -1;
}

static void command(char *line)
{
    char *save = NULL;
    char *cmd = strtok_r(line, " \t\r\n", &save);
    if (!cmd)
        return;
    if (!strcmp(cmd, "quit")) {
        fflush(ctl);
        _exit(0);
    }
    if (!strcmp(cmd, "time")) {
        reply("time %llu\n", (unsigned long long)sim_us());
    } else if (!strcmp(cmd, "block") || !strcmp(cmd, "clear")) {
        int beam = beam_of(strtok_r(NULL, " \t\r\n", &save));
        if (beam < 0) {
            reply("error beam must be in or out%.0llu\n", 0);
            return;
        }
        set_beam(beam, cmd[0] == 'b');
        reply("ok %llu\n", (unsigned long long)sim_us());
    } else if (!strcmp(cmd, "pulse") || !strcmp(cmd, "pulse_at")) {
        int beam = beam_of(strtok_r(NULL, " \t\r\n", &save));
        char *d = strtok_r(NULL, " \t\r\n", &save), *w = strtok_r(NULL, " \t\r\n", &save);
        if (beam < 0 || !d || !w) {
            reply("error usage: pulse in|out DELAY_US WIDTH_US, or pulse_at in|out AT_US WIDTH_US%.0llu\n", 0);
            return;
        }
        avr_cycle_count_t start = strtoull(d, NULL, 10) * (FREQ / 1000000UL);
        if (cmd[5] == '_') {
            if (start < avr->cycle) { /* a test that meant exact timing must hear it missed */
                reply("error that time has passed: now is %llu\n", (unsigned long long)sim_us());
                return;
            }
        } else {
            start += avr->cycle;
        }
        schedule_change(start, beam, 1);
        schedule_change(start + strtoull(w, NULL, 10) * (FREQ / 1000000UL), beam, 0);
        reply("ok %llu\n", (unsigned long long)(start / (FREQ / 1000000UL)));
    } else if (!strcmp(cmd, "colour")) {
        unsigned r = 0, g = 0, b = 0, c = 0;
        char *rest = strtok_r(NULL, "\r\n", &save);
        if (!rest || sscanf(rest, "%u %u %u %u", &r, &g, &b, &c) != 4) {
            reply("error usage: colour R G B C%.0llu\n", 0);
            return;
        }
        colour[0] = (uint16_t)c;
        colour[1] = (uint16_t)r;
        colour[2] = (uint16_t)g;
        colour[3] = (uint16_t)b;
        reply("ok %llu\n", (unsigned long long)sim_us());
    } else if (!strcmp(cmd, "pause")) {
        paused = 1;
        reply("ok %llu\n", (unsigned long long)sim_us());
    } else if (!strcmp(cmd, "resume")) {
        paused = 0;
        clock_gettime(CLOCK_MONOTONIC, &wall0);
        cycle0 = avr->cycle;
        reply("ok %llu\n", (unsigned long long)sim_us());
    } else {
        reply("error unknown command%.0llu\n", 0);
    }
}

static char cmd_buf[4096];
static size_t cmd_len;

static void service_stdin(void)
{
    for (;;) {
        ssize_t r = read(0, cmd_buf + cmd_len, sizeof cmd_buf - 1 - cmd_len);
        if (r == 0)
            _exit(0); /* the test (or whoever started us) is gone */
        if (r < 0)
            return;
        cmd_len += (size_t)r;
        char *nl;
        while ((nl = memchr(cmd_buf, '\n', cmd_len))) {
            *nl = 0;
            command(cmd_buf);
            size_t used = (size_t)(nl - cmd_buf) + 1;
            memmove(cmd_buf, cmd_buf + used, cmd_len - used);
            cmd_len -= used;
        }
        if (cmd_len == sizeof cmd_buf - 1)
            cmd_len = 0; /* a line too long to be a command */
    }
}

/* --- pacing ---------------------------------------------------------------------------- */

static void throttle(void)
{
    if (speed <= 0 || paused)
        return;
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    double wall = (double)(now.tv_sec - wall0.tv_sec) + (double)(now.tv_nsec - wall0.tv_nsec) / 1e9;
    double sim = (double)(avr->cycle - cycle0) / (double)FREQ / speed;
    double ahead = sim - wall;
    if (ahead > 0.001) {
        struct timespec ts = {(time_t)ahead, (long)((ahead - (double)(time_t)ahead) * 1e9)};
        nanosleep(&ts, NULL);
    }
}

int main(int argc, char **argv)
{
    const char *elf = NULL;
    int tcs = 0;
    /* libsimavr prints progress on stdout; keep stdout for the answers only */
    ctl = fdopen(dup(1), "w");
    dup2(2, 1);
    if (!ctl)
        die("cannot set up the control channel");
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--speed") && i + 1 < argc)
            speed = atof(argv[++i]);
        else if (!strcmp(argv[i], "--tcs34725"))
            tcs = 1;
        else if (argv[i][0] != '-')
            elf = argv[i];
        else
            die("usage: simbridge [--speed X] [--tcs34725] FIRMWARE.elf");
    }
    if (!elf)
        die("usage: simbridge [--speed X] [--tcs34725] FIRMWARE.elf");

    elf_firmware_t fw;
    memset(&fw, 0, sizeof fw);
    if (elf_read_firmware(elf, &fw) != 0)
        die("cannot read the firmware ELF");
    avr = avr_make_mcu_by_name("atmega328p");
    if (!avr)
        die("this libsimavr does not know the atmega328p");
    avr_init(avr);
    avr->frequency = FREQ;
    avr_load_firmware(avr, &fw);
    avr->log = 0;

    /* The UART is ours: no console echo, and no sleeping when the firmware polls it. */
    uint32_t flags = 0;
    avr_ioctl(avr, AVR_IOCTL_UART_GET_FLAGS('0'), &flags);
    flags &= ~(uint32_t)(AVR_UART_FLAG_STDIO | AVR_UART_FLAG_POLL_SLEEP);
    avr_ioctl(avr, AVR_IOCTL_UART_SET_FLAGS('0'), &flags);
    avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUTPUT), uart_out_hook, NULL);
    avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUT_XON), xon_hook, NULL);
    avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUT_XOFF), xoff_hook, NULL);
    uart_in = avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_INPUT);

    beam_pin[0] = avr_io_getirq(avr, AVR_IOCTL_IOPORT_GETIRQ('D'), 2);
    beam_pin[1] = avr_io_getirq(avr, AVR_IOCTL_IOPORT_GETIRQ('D'), 3);
    set_beam(0, 0);
    set_beam(1, 0);
    if (tcs)
        attach_tcs();

    char name[128];
    int slave;
    if (openpty(&pty_master, &slave, name, NULL, NULL) < 0)
        die("cannot create a pty");
    struct termios tio;
    tcgetattr(slave, &tio);
    cfmakeraw(&tio);
    tcsetattr(slave, TCSANOW, &tio);
    close(slave); /* until someone opens it, output goes nowhere (EIO), like an unplugged cable */
    fcntl(pty_master, F_SETFL, fcntl(pty_master, F_GETFL) | O_NONBLOCK);
    fcntl(0, F_SETFL, fcntl(0, F_GETFL) | O_NONBLOCK);
    fprintf(ctl, "pty %s\n", name);
    fflush(ctl);

    clock_gettime(CLOCK_MONOTONIC, &wall0);
    cycle0 = avr->cycle;
    for (;;) {
        if (!paused) {
            for (int i = 0; i < 4000; i++) {
                int state = avr_run(avr);
                if (state == cpu_Done || state == cpu_Crashed) {
                    fprintf(stderr, "simbridge: the firmware stopped (state %d)\n", state);
                    fflush(stderr);
                    _exit(3);
                }
                if (n_sched)
                    fire_due();
            }
        } else {
            struct timespec ts = {0, 1000000};
            nanosleep(&ts, NULL);
        }
        service_pty();
        service_stdin();
        throttle();
    }
}
