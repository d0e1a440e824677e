/*
 * proto_tool - the firmware's protocol code (tower_sensors/proto.c) on the host.
 *
 * The Python tests drive it line by line on stdin so that the C codec and the
 * Python codec answer the same questions about the same bytes. One command per
 * line, one answer per line (the stream command answers several, then END):
 *
 *   schema                      -> HASH TEXT
 *   crc HEX                     -> CRC (4 hex digits)
 *   cobs HEX / uncobs HEX       -> HEX | ERR code
 *   frame VER TYPE SEQ HEX      -> wire bytes (COBS + 00) as HEX
 *   parse HEX                   -> OK VER TYPE SEQ PAYLOAD | ERR code [VER TYPE SEQ PAYLOAD]
 *   stream HEX                  -> F VER TYPE SEQ PAYLOAD | E code ... END
 *   pack NAME FIELDS...         -> payload HEX (NAME: hello heartbeat state event ack hello_ack)
 *   unpack TYPE HEX             -> the fields in wire order, decimal | ERR code
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../tower_sensors/proto.h"

static const char *code_name(int rc)
{
    switch (rc) {
    case PROTO_E_COBS: return "cobs";
    case PROTO_E_SHORT: return "short";
    case PROTO_E_LONG: return "long";
    case PROTO_E_CRC: return "crc";
    case PROTO_E_LENGTH: return "length";
    case PROTO_E_VERSION: return "version";
    case PROTO_E_TYPE: return "type";
    default: return "unknown";
    }
}

static size_t from_hex(const char *s, uint8_t *out, size_t cap)
{
    size_t n = 0;
    while (s[0] && s[1] && n < cap) {
        unsigned v;
        if (sscanf(s, "%2x", &v) != 1)
            break;
        out[n++] = (uint8_t)v;
        s += 2;
    }
    return n;
}

static void put_hex(const uint8_t *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        printf("%02x", b[i]);
}

static void put_frame(const proto_frame_t *f)
{
    printf("%u %u %u ", f->version, f->type, f->seq);
    put_hex(f->payload, f->len);
    if (!f->len)
        printf("-");
}

static unsigned long arg(char **save)
{
    char *t = strtok_r(NULL, " \t\r\n", save);
    return t ? strtoul(t, NULL, 0) : 0;
}

static void pack(const char *name, char **save)
{
    proto_frame_t f;
    if (!strcmp(name, "hello")) {
        proto_hello_t m;
        m.boot_id = arg(save); m.schema = arg(save);
        m.fw_major = arg(save); m.fw_minor = arg(save); m.fw_patch = arg(save);
        m.caps = arg(save); m.ring_size = arg(save); m.uptime_ms = arg(save);
        proto_pack_hello(&m, &f);
    } else if (!strcmp(name, "heartbeat") || !strcmp(name, "state")) {
        proto_state_t m;
        m.boot_id = arg(save); m.uptime_ms = arg(save); m.beams = arg(save);
        m.total_in = arg(save); m.total_out = arg(save); m.next_event_id = arg(save);
        m.unacked = arg(save); m.dropped_in = arg(save); m.dropped_out = arg(save);
        proto_pack_state(&m, name[0] == 'h' ? PROTO_T_HEARTBEAT : PROTO_T_STATE, &f);
    } else if (!strcmp(name, "event")) {
        proto_event_t m;
        m.boot_id = arg(save); m.event_id = arg(save); m.beam = arg(save); m.flags = arg(save);
        m.count = arg(save); m.t_ms = arg(save); m.width_us = arg(save); m.median_us = arg(save);
        m.total_in = arg(save); m.total_out = arg(save);
        m.r = arg(save); m.g = arg(save); m.b = arg(save); m.c = arg(save);
        proto_pack_event(&m, &f);
    } else if (!strcmp(name, "ack")) {
        proto_ack_t m;
        m.boot_id = arg(save); m.event_id = arg(save);
        proto_pack_ack(&m, &f);
    } else if (!strcmp(name, "hello_ack")) {
        proto_pack_hello_ack(arg(save), &f);
    } else {
        printf("ERR name\n");
        return;
    }
    put_hex(f.payload, f.len);
    if (!f.len)
        printf("-");
    printf("\n");
}

static void unpack(unsigned type, const char *hex)
{
    proto_frame_t f;
    f.version = PROTO_VERSION;
    f.type = (uint8_t)type;
    f.seq = 0;
    f.len = (uint8_t)from_hex(hex, f.payload, sizeof f.payload);
    int rc;
    if (type == PROTO_T_HELLO) {
        proto_hello_t m;
        if (!(rc = proto_unpack_hello(&f, &m)))
            printf("%lu %lu %u %u %u %u %u %lu\n", (unsigned long)m.boot_id, (unsigned long)m.schema,
                   m.fw_major, m.fw_minor, m.fw_patch, m.caps, m.ring_size, (unsigned long)m.uptime_ms);
    } else if (type == PROTO_T_HEARTBEAT || type == PROTO_T_STATE) {
        proto_state_t m;
        if (!(rc = proto_unpack_state(&f, &m)))
            printf("%lu %lu %u %lu %lu %lu %u %u %u\n", (unsigned long)m.boot_id, (unsigned long)m.uptime_ms,
                   m.beams, (unsigned long)m.total_in, (unsigned long)m.total_out,
                   (unsigned long)m.next_event_id, m.unacked, m.dropped_in, m.dropped_out);
    } else if (type == PROTO_T_EVENT) {
        proto_event_t m;
        if (!(rc = proto_unpack_event(&f, &m)))
            printf("%lu %lu %u %u %u %lu %lu %lu %lu %lu %u %u %u %u\n", (unsigned long)m.boot_id,
                   (unsigned long)m.event_id, m.beam, m.flags, m.count, (unsigned long)m.t_ms,
                   (unsigned long)m.width_us, (unsigned long)m.median_us, (unsigned long)m.total_in,
                   (unsigned long)m.total_out, m.r, m.g, m.b, m.c);
    } else if (type == PROTO_T_ACK) {
        proto_ack_t m;
        if (!(rc = proto_unpack_ack(&f, &m)))
            printf("%lu %lu\n", (unsigned long)m.boot_id, (unsigned long)m.event_id);
    } else if (type == PROTO_T_HELLO_ACK) {
        uint32_t boot;
        if (!(rc = proto_unpack_hello_ack(&f, &boot)))
            printf("%lu\n", (unsigned long)boot);
    } else {
        rc = PROTO_E_TYPE;
    }
    if (rc)
        printf("ERR %s\n", code_name(rc));
}

int main(void)
{
    char *line = NULL;
    size_t cap = 0;
    static uint8_t buf[1 << 20], out[(1 << 20) + (1 << 20) / 254 + 8];
    while (getline(&line, &cap, stdin) > 0) {
        char *save = NULL;
        char *cmd = strtok_r(line, " \t\r\n", &save);
        if (!cmd)
            continue;
        char *hex = NULL;
        if (!strcmp(cmd, "schema")) {
            char text[1024];
            proto_schema_text(text, sizeof text);
            printf("%08lx %s\n", (unsigned long)proto_schema_hash(), text);
        } else if (!strcmp(cmd, "crc")) {
            hex = strtok_r(NULL, " \t\r\n", &save);
            size_t n = hex && strcmp(hex, "-") ? from_hex(hex, buf, sizeof buf) : 0;
            printf("%04x\n", proto_crc16(PROTO_CRC_INIT, buf, n));
        } else if (!strcmp(cmd, "cobs")) {
            hex = strtok_r(NULL, " \t\r\n", &save);
            size_t n = hex && strcmp(hex, "-") ? from_hex(hex, buf, sizeof buf) : 0;
            put_hex(out, proto_cobs_encode(buf, n, out));
            printf("\n");
        } else if (!strcmp(cmd, "uncobs")) {
            hex = strtok_r(NULL, " \t\r\n", &save);
            size_t n = hex ? from_hex(hex, buf, sizeof buf) : 0;
            int rc = proto_cobs_decode(buf, n, out, sizeof out);
            if (rc < 0)
                printf("ERR %s\n", code_name(rc));
            else {
                put_hex(out, (size_t)rc);
                printf(rc ? "\n" : "-\n");
            }
        } else if (!strcmp(cmd, "frame")) {
            proto_frame_t f;
            f.version = (uint8_t)arg(&save);
            f.type = (uint8_t)arg(&save);
            f.seq = (uint16_t)arg(&save);
            hex = strtok_r(NULL, " \t\r\n", &save);
            f.len = hex && strcmp(hex, "-") ? (uint8_t)from_hex(hex, f.payload, sizeof f.payload) : 0;
            uint8_t wire[PROTO_MAX_WIRE];
            put_hex(wire, proto_frame_encode(&f, wire));
            printf("\n");
        } else if (!strcmp(cmd, "parse")) {
            hex = strtok_r(NULL, " \t\r\n", &save);
            size_t n = hex && strcmp(hex, "-") ? from_hex(hex, buf, sizeof buf) : 0;
            proto_frame_t f;
            int rc = proto_frame_parse(buf, n, &f);
            if (rc == PROTO_OK) {
                printf("OK ");
                put_frame(&f);
            } else if (rc == PROTO_E_VERSION) {
                printf("ERR version ");
                put_frame(&f);
            } else {
                printf("ERR %s", code_name(rc));
            }
            printf("\n");
        } else if (!strcmp(cmd, "stream")) {
            hex = strtok_r(NULL, " \t\r\n", &save);
            size_t n = hex ? from_hex(hex, buf, sizeof buf) : 0;
            proto_decoder_t d;
            proto_decoder_init(&d);
            for (size_t i = 0; i < n; i++) {
                proto_frame_t f;
                int rc = proto_decoder_feed(&d, buf[i], &f);
                if (rc == 1) {
                    printf("F ");
                    put_frame(&f);
                    printf("\n");
                } else if (rc < 0) {
                    printf("E %s\n", code_name(rc));
                }
            }
            printf("END\n");
        } else if (!strcmp(cmd, "pack")) {
            char *name = strtok_r(NULL, " \t\r\n", &save);
            pack(name ? name : "", &save);
        } else if (!strcmp(cmd, "unpack")) {
            unsigned type = (unsigned)arg(&save);
            hex = strtok_r(NULL, " \t\r\n", &save);
            unpack(type, hex && strcmp(hex, "-") ? hex : "");
        } else {
            printf("ERR command\n");
        }
        fflush(stdout);
    }
    free(line);
    return 0;
}
