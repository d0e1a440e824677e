/*
 * tower_sensors - break-beams (and an optional colour sensor) on the TOKYO
 * JIDOHANBAIKI tower, for an Arduino Uno or Nano (ATmega328P, 16 MHz).
 *
 * What it does, and why each part is there:
 *  - The two beam receivers sit on the interrupt pins (D2 input slot, D3 exit
 *    chute) with pull-ups. The interrupt handlers only queue the time and
 *    level of each edge; everything else, above all serial output, happens in
 *    loop(), which replays the edges in order, so a short pass is not lost
 *    while loop() is busy and a burst of edges cannot stall the UART.
 *  - Glitch filter: a level counts once it has held for FILTER_US (1.5 ms).
 *    A drink falling through a beam blocks it for 5-50 ms; a flicker of the
 *    receiver or a bouncing edge does not last a millisecond.
 *  - Each pass becomes an event with its start time and blocked width. A pass
 *    much wider than the running median of single passes (x1.7) is flagged as
 *    two drinks. A beam blocked longer than HOLD_MS is reported at once (a
 *    drink resting in the chute must not wait to be counted).
 *  - The optional TCS34725 reads the colour of a drink resting in the exit beam.
 *  - Events wait in a ring until the host acknowledges them (it does so only
 *    after its store has committed them) and are re-sent until then, so an
 *    unplugged cable or a corrupted frame loses nothing.
 *  - HELLO at boot (protocol version, schema hash, firmware version, boot id);
 *    a heartbeat every second with both beams and the running totals.
 * The frame format lives in proto.c, shared with the host tests; see PROTOCOL.md.
 */
#include <Arduino.h>
#include <EEPROM.h>
#include <Wire.h>
#include <avr/interrupt.h>
#include <avr/wdt.h>

#include "proto.h"

#define FW_MAJOR 1
#define FW_MINOR 0
#define FW_PATCH 0

#define BAUD 115200UL
#define FILTER_US 1500UL     /* glitch filter: a level must hold this long */
#define HOLD_MS 500UL        /* blocked this long: report the pass without waiting for it to clear */
#define REST_MS 60UL         /* a drink resting this long in the exit beam gets its colour read */
#define HEARTBEAT_MS 1000UL
#define RESEND_MS 500UL      /* an unacknowledged event goes out again after this */
#define RING_SIZE 16
#define MEDIAN_N 9           /* single-pass widths kept per beam for the running median */
#define MEDIAN_MIN 3         /* no double flag before this many single passes */
#define DOUBLE_NUM 17        /* double when width > median * 17 / 10 */
#define DOUBLE_DEN 10

#define TCS_ADDR 0x29
#define TCS_CMD 0x80
#define TCS_AUTOINC 0x20

/* --- what the interrupt handlers share with loop() -------------------------------- */

#define EDGES 8 /* per beam; a power of two. More unread edges than this is noise anyway */

struct Edges {
    uint32_t us[EDGES];       /* time of each edge */
    uint8_t blocked[EDGES];   /* level after it: 1 = beam blocked (the receiver pulls low) */
    volatile uint8_t head;    /* written by the interrupt handler only */
    uint8_t tail;             /* written by loop() only */
};

static Edges edges[2];

static inline void queue_edge(Edges *q, uint8_t blocked)
{
    uint8_t h = q->head;
    q->us[h & (EDGES - 1)] = micros();
    q->blocked[h & (EDGES - 1)] = blocked;
    q->head = h + 1;
}

static void isr_in(void) { queue_edge(&edges[PROTO_BEAM_IN], !(PIND & _BV(PD2))); }
static void isr_out(void) { queue_edge(&edges[PROTO_BEAM_OUT], !(PIND & _BV(PD3))); }

/* --- per-beam state, loop() only ----------------------------------------------------- */

struct Beam {
    uint8_t blocked;      /* filtered level */
    uint8_t reported;     /* this blockage was already reported (held, or blocked at boot) */
    uint8_t colour_read;
    uint32_t start_us;    /* filtered edge that began the blockage */
    uint32_t start_ms;
    uint16_t r, g, b, c;
    uint32_t widths[MEDIAN_N];
    uint8_t nwidths, wpos;
};

struct Slot {             /* one unacknowledged event; boot id is global */
    uint32_t event_id;    /* 0 = free */
    uint8_t beam, flags, count;
    uint32_t t_ms, width_us, median_us, total_in, total_out;
    uint16_t r, g, b, c;
    uint16_t sent_ms;     /* low 16 bits of millis() at the last send */
    uint8_t due;          /* send at the next chance */
};

static Beam beams[2];
static Slot ring[RING_SIZE];
static uint32_t boot_id, next_event_id = 1, totals[2];
static uint16_t dropped[2];
static uint8_t colour_present, session_open;
static uint16_t tx_seq;
static uint32_t last_beat_ms;
static proto_decoder_t rx;

/* --- sending -------------------------------------------------------------------------- */

static uint8_t send(proto_frame_t *f)
{
    uint8_t wire[PROTO_MAX_WIRE];
    f->seq = tx_seq;
    size_t n = proto_frame_encode(f, wire);
    if ((size_t)Serial.availableForWrite() < n)
        return 0; /* try again on a later pass of loop(), never block on a full buffer */
    tx_seq++;
    Serial.write(wire, n);
    return 1;
}

static void send_hello(void)
{
    proto_hello_t h;
    proto_frame_t f;
    h.boot_id = boot_id;
    h.schema = proto_schema_hash();
    h.fw_major = FW_MAJOR;
    h.fw_minor = FW_MINOR;
    h.fw_patch = FW_PATCH;
    h.caps = colour_present ? PROTO_CAP_COLOUR : 0;
    h.ring_size = RING_SIZE;
    h.uptime_ms = millis();
    proto_pack_hello(&h, &f);
    Serial.flush(); /* HELLO matters more than speed: wait for room */
    send(&f);
}

static uint8_t unacked(void)
{
    uint8_t n = 0;
    for (uint8_t i = 0; i < RING_SIZE; i++)
        n += ring[i].event_id != 0;
    return n;
}

static void send_state(uint8_t type)
{
    proto_state_t s;
    proto_frame_t f;
    s.boot_id = boot_id;
    s.uptime_ms = millis();
    s.beams = (beams[PROTO_BEAM_IN].blocked ? 1 : 0) | (beams[PROTO_BEAM_OUT].blocked ? 2 : 0);
    s.total_in = totals[PROTO_BEAM_IN];
    s.total_out = totals[PROTO_BEAM_OUT];
    s.next_event_id = next_event_id;
    s.unacked = unacked();
    s.dropped_in = dropped[PROTO_BEAM_IN];
    s.dropped_out = dropped[PROTO_BEAM_OUT];
    proto_pack_state(&s, type, &f);
    Serial.flush();
    send(&f);
}

/* Send the oldest event that is due, at most one per call. */
static void send_pending(void)
{
    if (!session_open)
        return;
    uint16_t now = (uint16_t)millis();
    Slot *best = 0;
    for (uint8_t i = 0; i < RING_SIZE; i++) {
        Slot *s = &ring[i];
        if (!s->event_id)
            continue;
        if (!s->due && (uint16_t)(now - s->sent_ms) < RESEND_MS)
            continue;
        if (!best || s->event_id < best->event_id)
            best = s;
    }
    if (!best)
        return;
    proto_event_t e;
    proto_frame_t f;
    e.boot_id = boot_id;
    e.event_id = best->event_id;
    e.beam = best->beam;
    e.flags = best->flags;
    e.count = best->count;
    e.t_ms = best->t_ms;
    e.width_us = best->width_us;
    e.median_us = best->median_us;
    e.total_in = best->total_in;
    e.total_out = best->total_out;
    e.r = best->r;
    e.g = best->g;
    e.b = best->b;
    e.c = best->c;
    proto_pack_event(&e, &f);
    if (send(&f)) {
        best->due = 0;
        best->sent_ms = now;
        best->flags |= PROTO_F_RESENT; /* every later copy is a re-send */
    }
}

static void all_due(void)
{
    for (uint8_t i = 0; i < RING_SIZE; i++)
        ring[i].due = 1;
}

/* --- receiving -------------------------------------------------------------------------- */

static void handle(const proto_frame_t *f)
{
    switch (f->type) {
    case PROTO_T_HELLO_REQ:
        session_open = 0;
        send_hello();
        break;
    case PROTO_T_HELLO_ACK: {
        uint32_t id;
        if (proto_unpack_hello_ack(f, &id) == PROTO_OK && id == boot_id) {
            session_open = 1;
            all_due();
        }
        break;
    }
    case PROTO_T_ACK: {
        proto_ack_t a;
        if (proto_unpack_ack(f, &a) == PROTO_OK && a.boot_id == boot_id)
            for (uint8_t i = 0; i < RING_SIZE; i++)
                if (ring[i].event_id == a.event_id)
                    ring[i].event_id = 0;
        break;
    }
    case PROTO_T_STATE_REQ:
        send_state(PROTO_T_STATE);
        all_due();
        break;
    default:
        break; /* frames meant for the host, or a type we do not know: ignore */
    }
}

static void receive(void)
{
    while (Serial.available() > 0) {
        proto_frame_t f;
        if (proto_decoder_feed(&rx, (uint8_t)Serial.read(), &f) == 1)
            handle(&f);
    }
}

/* --- passes ------------------------------------------------------------------------------ */

static uint32_t median(const Beam *b)
{
    uint32_t v[MEDIAN_N];
    uint8_t n = b->nwidths;
    for (uint8_t i = 0; i < n; i++) { /* insertion sort: nine values at most */
        uint32_t x = b->widths[i];
        uint8_t j = i;
        for (; j > 0 && v[j - 1] > x; j--)
            v[j] = v[j - 1];
        v[j] = x;
    }
    return n ? v[n / 2] : 0;
}

static void record_pass(uint8_t which, uint32_t width_us, uint8_t held)
{
    Beam *b = &beams[which];
    uint8_t flags = held ? PROTO_F_HELD : 0, count = 1;
    uint32_t med = median(b);
    if (!held) {
        if (b->nwidths >= MEDIAN_MIN && width_us > med / DOUBLE_DEN * DOUBLE_NUM) {
            flags |= PROTO_F_DOUBLE;
            count = 2;
        } else {
            b->widths[b->wpos] = width_us;
            b->wpos = (b->wpos + 1) % MEDIAN_N;
            if (b->nwidths < MEDIAN_N)
                b->nwidths++;
        }
    }
    if (b->nwidths < MEDIAN_MIN)
        med = 0; /* not known yet */
    totals[which] += count;
    Slot *s = 0;
    for (uint8_t i = 0; i < RING_SIZE && !s; i++)
        if (!ring[i].event_id)
            s = &ring[i];
    if (!s) { /* full: the totals still count it, the host learns of it from the heartbeat */
        dropped[which] += count;
        return;
    }
    s->event_id = next_event_id++;
    s->beam = which;
    s->flags = flags;
    s->count = count;
    s->t_ms = b->start_ms;
    s->width_us = width_us;
    s->median_us = med;
    s->total_in = totals[PROTO_BEAM_IN];
    s->total_out = totals[PROTO_BEAM_OUT];
    if (which == PROTO_BEAM_OUT && b->colour_read) {
        s->flags |= PROTO_F_COLOUR;
        s->r = b->r;
        s->g = b->g;
        s->b = b->b;
        s->c = b->c;
    } else {
        s->r = s->g = s->b = s->c = 0;
    }
    s->due = 1;
}

static uint8_t tcs_write(uint8_t reg, uint8_t value)
{
    Wire.beginTransmission(TCS_ADDR);
    Wire.write(TCS_CMD | reg);
    Wire.write(value);
    return Wire.endTransmission() == 0;
}

static uint8_t tcs_init(void)
{
    Wire.begin();
    Wire.beginTransmission(TCS_ADDR);
    Wire.write(TCS_CMD | 0x12); /* ID register */
    if (Wire.endTransmission() != 0 || Wire.requestFrom(TCS_ADDR, 1) != 1)
        return 0;
    uint8_t id = Wire.read();
    if (id != 0x44 && id != 0x4D) /* TCS34721/5 and TCS34723/7 */
        return 0;
    return tcs_write(0x01, 0xF6)     /* ATIME: 10 cycles = 24 ms */
        && tcs_write(0x0F, 0x01)     /* gain x4 */
        && tcs_write(0x00, 0x03);    /* power on, RGBC enabled */
}

static void tcs_read(Beam *b)
{
    Wire.beginTransmission(TCS_ADDR);
    Wire.write(TCS_CMD | TCS_AUTOINC | 0x14); /* CDATAL .. BDATAH */
    if (Wire.endTransmission() != 0 || Wire.requestFrom(TCS_ADDR, 8) != 8)
        return;
    uint16_t v[4];
    for (uint8_t i = 0; i < 4; i++) {
        uint8_t lo = Wire.read();
        v[i] = lo | ((uint16_t)Wire.read() << 8);
    }
    b->c = v[0];
    b->r = v[1];
    b->g = v[2];
    b->b = v[3];
    b->colour_read = 1;
}

/* Apply the glitch filter to one beam's queued edges and turn the ones that
 * held for FILTER_US into passes. An edge followed by another one sooner than
 * that was a glitch (or a bounce) and is skipped. */
static void watch(uint8_t which)
{
    Beam *b = &beams[which];
    Edges *q = &edges[which];
    for (;;) {
        noInterrupts();
        uint8_t head = q->head;
        interrupts();
        if ((uint8_t)(head - q->tail) > EDGES)
            q->tail = head - EDGES; /* overrun by a buzzing receiver: keep the newest */
        if (q->tail == head)
            break;
        uint8_t i = q->tail & (EDGES - 1);
        noInterrupts(); /* the handler may be writing the slot after this one */
        uint32_t t = q->us[i];
        uint8_t level = q->blocked[i];
        uint8_t more = (uint8_t)(q->head - q->tail) > 1;
        uint32_t next_t = q->us[(i + 1) & (EDGES - 1)];
        interrupts();
        uint32_t now = micros();
        if (more) {
            if (next_t - t < FILTER_US) {
                q->tail++; /* did not last: a glitch */
                continue;
            }
        } else if (now - t < FILTER_US) {
            break; /* the newest edge has not lasted long enough yet */
        }
        q->tail++;
        if (level == b->blocked)
            continue;
        b->blocked = level;
        if (level) {
            b->start_us = t;
            b->start_ms = millis() - (now - t) / 1000UL;
            b->reported = 0;
            b->colour_read = 0;
        } else if (!b->reported) {
            record_pass(which, t - b->start_us, 0);
        }
    }
    uint32_t now = micros();
    if (b->blocked && !b->reported) {
        uint32_t held = now - b->start_us;
        if (which == PROTO_BEAM_OUT && colour_present && !b->colour_read && held >= REST_MS * 1000UL)
            tcs_read(b);
        if (held >= HOLD_MS * 1000UL) {
            record_pass(which, held, 1);
            b->reported = 1;
        }
    }
}

/* --- boot id ------------------------------------------------------------------------------ */

static volatile uint8_t wdt_fired;
ISR(WDT_vect) { wdt_fired = 1; }

/* A boot counter kept in EEPROM, mixed with the jitter between the watchdog's
 * RC oscillator and the crystal: unique across resets and across reflashing. */
static uint32_t make_boot_id(void)
{
    uint32_t counter;
    EEPROM.get(0, counter);
    counter++;
    EEPROM.put(0, counter);
    uint32_t h = 2166136261u;
    for (uint8_t i = 0; i < 4; i++) {
        wdt_fired = 0;
        noInterrupts();
        MCUSR &= ~_BV(WDRF);
        WDTCSR = _BV(WDCE) | _BV(WDE);
        WDTCSR = _BV(WDIE); /* interrupt only, 16 ms */
        interrupts();
        while (!wdt_fired) {
        }
        uint32_t t = micros();
        for (uint8_t k = 0; k < 4; k++)
            h = (h ^ (uint8_t)(t >> (8 * k))) * 16777619u;
    }
    noInterrupts();
    WDTCSR = _BV(WDCE) | _BV(WDE);
    WDTCSR = 0;
    interrupts();
    uint32_t id = (counter * 2654435761u) ^ h;
    return id ? id : 1;
}

/* --- the sketch ---------------------------------------------------------------------------- */

void setup()
{
    pinMode(2, INPUT_PULLUP);
    pinMode(3, INPUT_PULLUP);
    Serial.begin(BAUD);
    proto_decoder_init(&rx);
    boot_id = make_boot_id();
    colour_present = tcs_init();
    for (uint8_t i = 0; i < 2; i++) {
        uint8_t level = !(PIND & (i == PROTO_BEAM_IN ? _BV(PD2) : _BV(PD3)));
        beams[i].blocked = level;
        beams[i].reported = level; /* blocked at power-on: not a pass */
    }
    attachInterrupt(digitalPinToInterrupt(2), isr_in, CHANGE);
    attachInterrupt(digitalPinToInterrupt(3), isr_out, CHANGE);
    Serial.write((uint8_t)0); /* end whatever noise the reset left on the line */
    send_hello();
    last_beat_ms = millis();
}

void loop()
{
    receive();
    watch(PROTO_BEAM_IN);
    watch(PROTO_BEAM_OUT);
    uint32_t now = millis();
    if (now - last_beat_ms >= HEARTBEAT_MS) {
        last_beat_ms += HEARTBEAT_MS;
        if (now - last_beat_ms >= HEARTBEAT_MS)
            last_beat_ms = now; /* fell behind: do not send a burst */
        if (!session_open)
            send_hello(); /* until the host answers */
        send_state(PROTO_T_HEARTBEAT);
    }
    send_pending();
}
