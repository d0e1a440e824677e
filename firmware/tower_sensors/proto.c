/*
 * proto.c - frame codec of the tower sensor board (see proto.h, ../PROTOCOL.md).
 *
 * Written for an 8-bit AVR with 2 KB of RAM first: no heap, no tables, bitwise
 * CRC (45 bytes cost about 0.2 ms at 16 MHz), every buffer bounded by
 * PROTO_MAX_FRAME. The host build runs the same code under sanitizers.
 */
#include "proto.h"

#include <string.h>

#ifdef __AVR__
#include <avr/pgmspace.h>
#define SCHEMA_BYTE(p) pgm_read_byte(p)
#define SCHEMA_STORAGE PROGMEM
#else
#define SCHEMA_BYTE(p) (*(p))
#define SCHEMA_STORAGE
#endif

/* Keep identical to companion/sensors/codec.py: SCHEMA (a test compares them). */
static const char schema_text[] SCHEMA_STORAGE =
    "tower-sensors/1"
    ";01 HELLO boot_id:u32 schema:u32 fw_major:u8 fw_minor:u8 fw_patch:u8 caps:u8 ring_size:u8 uptime_ms:u32"
    ";02 HEARTBEAT boot_id:u32 uptime_ms:u32 beams:u8 total_in:u32 total_out:u32 next_event_id:u32 unacked:u8 dropped_in:u16 dropped_out:u16"
    ";03 EVENT boot_id:u32 event_id:u32 beam:u8 flags:u8 count:u8 t_ms:u32 width_us:u32 median_us:u32 total_in:u32 total_out:u32 r:u16 g:u16 b:u16 c:u16"
    ";04 STATE boot_id:u32 uptime_ms:u32 beams:u8 total_in:u32 total_out:u32 next_event_id:u32 unacked:u8 dropped_in:u16 dropped_out:u16"
    ";80 HELLO_REQ"
    ";81 HELLO_ACK boot_id:u32"
    ";82 ACK boot_id:u32 event_id:u32"
    ";83 STATE_REQ";

uint32_t proto_schema_hash(void)
{
    uint32_t h = 2166136261u;
    for (const char *p = schema_text;; p++) {
        uint8_t c = SCHEMA_BYTE(p);
        if (!c)
            break;
        h ^= c;
        h *= 16777619u;
    }
    return h;
}

size_t proto_schema_text(char *out, size_t cap)
{
    size_t i = 0;
    for (const char *p = schema_text;; p++) {
        uint8_t c = SCHEMA_BYTE(p);
        if (!c || i + 1 >= cap)
            break;
        out[i++] = (char)c;
    }
    if (cap)
        out[i] = 0;
    return i;
}

uint16_t proto_crc16(uint16_t crc, const uint8_t *data, size_t len)
{
    while (len--) {
        crc ^= (uint16_t)(*data++) << 8;
        for (uint8_t i = 0; i < 8; i++)
            crc = (crc & 0x8000u) ? (uint16_t)((crc << 1) ^ 0x1021u) : (uint16_t)(crc << 1);
    }
    return crc;
}

size_t proto_cobs_encode(const uint8_t *in, size_t n, uint8_t *out)
{
    size_t code_at = 0, o = 1;
    uint8_t code = 1;
    for (size_t i = 0; i < n; i++) {
        if (in[i] == 0) {
            out[code_at] = code;
            code_at = o++;
            code = 1;
        } else {
            out[o++] = in[i];
            if (++code == 0xFF) {
                out[code_at] = code;
                if (i + 1 == n)
                    return o; /* ends on a full block: no empty block after it */
                code_at = o++;
                code = 1;
            }
        }
    }
    out[code_at] = code;
    return o;
}

int proto_cobs_decode(const uint8_t *in, size_t n, uint8_t *out, size_t out_cap)
{
    size_t i = 0, o = 0;
    while (i < n) {
        uint8_t code = in[i++];
        if (code == 0)
            return PROTO_E_COBS;
        for (uint8_t k = 1; k < code; k++) {
            if (i >= n || in[i] == 0 || o >= out_cap)
                return PROTO_E_COBS;
            out[o++] = in[i++];
        }
        if (code != 0xFF && i < n) {
            if (o >= out_cap)
                return PROTO_E_COBS;
            out[o++] = 0;
        }
    }
    return (int)o;
}

int proto_payload_len(uint8_t type)
{
    switch (type) {
    case PROTO_T_HELLO: return PROTO_LEN_HELLO;
    case PROTO_T_HEARTBEAT:
    case PROTO_T_STATE: return PROTO_LEN_STATE;
    case PROTO_T_EVENT: return PROTO_LEN_EVENT;
    case PROTO_T_HELLO_REQ: return PROTO_LEN_HELLO_REQ;
    case PROTO_T_HELLO_ACK: return PROTO_LEN_HELLO_ACK;
    case PROTO_T_ACK: return PROTO_LEN_ACK;
    case PROTO_T_STATE_REQ: return PROTO_LEN_STATE_REQ;
    default: return -1;
    }
}

size_t proto_frame_encode(const proto_frame_t *f, uint8_t *wire)
{
    uint8_t raw[PROTO_MAX_FRAME];
    uint8_t len = f->len > PROTO_MAX_PAYLOAD ? PROTO_MAX_PAYLOAD : f->len;
    raw[0] = f->version;
    raw[1] = f->type;
    raw[2] = (uint8_t)(f->seq & 0xFF);
    raw[3] = (uint8_t)(f->seq >> 8);
    memcpy(raw + PROTO_HEADER_LEN, f->payload, len);
    size_t n = PROTO_HEADER_LEN + len;
    uint16_t crc = proto_crc16(PROTO_CRC_INIT, raw, n);
    raw[n++] = (uint8_t)(crc & 0xFF);
    raw[n++] = (uint8_t)(crc >> 8);
    size_t w = proto_cobs_encode(raw, n, wire);
    wire[w++] = 0;
    return w;
}

int proto_frame_parse(const uint8_t *cobs, size_t n, proto_frame_t *f)
{
    uint8_t raw[PROTO_MAX_FRAME];
    if (n > PROTO_MAX_FRAME + 1)
        return PROTO_E_LONG;
    int len = proto_cobs_decode(cobs, n, raw, sizeof raw);
    if (len < 0)
        return PROTO_E_COBS;
    if (len < PROTO_HEADER_LEN + PROTO_CRC_LEN)
        return PROTO_E_SHORT;
    uint16_t got = (uint16_t)(raw[len - 2] | (raw[len - 1] << 8));
    if (proto_crc16(PROTO_CRC_INIT, raw, (size_t)len - 2) != got)
        return PROTO_E_CRC;
    f->version = raw[0];
    f->type = raw[1];
    f->seq = (uint16_t)(raw[2] | (raw[3] << 8));
    f->len = (uint8_t)(len - PROTO_HEADER_LEN - PROTO_CRC_LEN);
    memcpy(f->payload, raw + PROTO_HEADER_LEN, f->len);
    if (f->version != PROTO_VERSION)
        return PROTO_E_VERSION; /* the header is filled in: the caller may report it */
    int want = proto_payload_len(f->type);
    if (want < 0)
        return PROTO_E_TYPE;
    if (want != f->len)
        return PROTO_E_LENGTH;
    return PROTO_OK;
}

void proto_decoder_init(proto_decoder_t *d)
{
    d->len = 0;
    d->overflow = 0;
}

int proto_decoder_feed(proto_decoder_t *d, uint8_t byte, proto_frame_t *f)
{
    if (byte != 0) {
        if (d->len < sizeof d->buf)
            d->buf[d->len++] = byte;
        else
            d->overflow = 1;
        return 0;
    }
    uint8_t n = d->len, over = d->overflow;
    d->len = 0;
    d->overflow = 0;
    if (n == 0)
        return 0; /* back-to-back delimiters: nothing to report */
    if (over)
        return PROTO_E_LONG;
    int rc = proto_frame_parse(d->buf, n, f);
    return rc == PROTO_OK ? 1 : rc;
}

/* --- little-endian field packing ------------------------------------------------ */

static uint8_t *put8(uint8_t *p, uint8_t v) { *p = v; return p + 1; }
static uint8_t *put16(uint8_t *p, uint16_t v) { p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); return p + 2; }
static uint8_t *put32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); p[2] = (uint8_t)(v >> 16); p[3] = (uint8_t)(v >> 24);
    return p + 4;
}
static const uint8_t *get8(const uint8_t *p, uint8_t *v) { *v = *p; return p + 1; }
static const uint8_t *get16(const uint8_t *p, uint16_t *v) { *v = (uint16_t)(p[0] | (p[1] << 8)); return p + 2; }
static const uint8_t *get32(const uint8_t *p, uint32_t *v)
{
    *v = (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
    return p + 4;
}

static void start(proto_frame_t *f, uint8_t type, uint8_t len)
{
    f->version = PROTO_VERSION;
    f->type = type;
    f->len = len;
    /* seq is the sender's business: set it just before encoding */
}

void proto_pack_hello(const proto_hello_t *m, proto_frame_t *f)
{
    uint8_t *p = f->payload;
    start(f, PROTO_T_HELLO, PROTO_LEN_HELLO);
    p = put32(p, m->boot_id);
    p = put32(p, m->schema);
    p = put8(p, m->fw_major);
    p = put8(p, m->fw_minor);
    p = put8(p, m->fw_patch);
    p = put8(p, m->caps);
    p = put8(p, m->ring_size);
    put32(p, m->uptime_ms);
}

void proto_pack_state(const proto_state_t *m, uint8_t type, proto_frame_t *f)
{
    uint8_t *p = f->payload;
    start(f, type, PROTO_LEN_STATE);
    p = put32(p, m->boot_id);
    p = put32(p, m->uptime_ms);
    p = put8(p, m->beams);
    p = put32(p, m->total_in);
    p = put32(p, m->total_out);
    p = put32(p, m->next_event_id);
    p = put8(p, m->unacked);
    p = put16(p, m->dropped_in);
    put16(p, m->dropped_out);
}

void proto_pack_event(const proto_event_t *m, proto_frame_t *f)
{
    uint8_t *p = f->payload;
    start(f, PROTO_T_EVENT, PROTO_LEN_EVENT);
    p = put32(p, m->boot_id);
    p = put32(p, m->event_id);
    p = put8(p, m->beam);
    p = put8(p, m->flags);
    p = put8(p, m->count);
    p = put32(p, m->t_ms);
    p = put32(p, m->width_us);
    p = put32(p, m->median_us);
    p = put32(p, m->total_in);
    p = put32(p, m->total_out);
    p = put16(p, m->r);
    p = put16(p, m->g);
    p = put16(p, m->b);
    put16(p, m->c);
}

void proto_pack_ack(const proto_ack_t *m, proto_frame_t *f)
{
    uint8_t *p = f->payload;
    start(f, PROTO_T_ACK, PROTO_LEN_ACK);
    p = put32(p, m->boot_id);
    put32(p, m->event_id);
}

void proto_pack_hello_ack(uint32_t boot_id, proto_frame_t *f)
{
    start(f, PROTO_T_HELLO_ACK, PROTO_LEN_HELLO_ACK);
    put32(f->payload, boot_id);
}

void proto_pack_empty(uint8_t type, proto_frame_t *f)
{
    start(f, type, 0);
}

static int check(const proto_frame_t *f, uint8_t type, uint8_t len)
{
    return (f->version == PROTO_VERSION && f->type == type && f->len == len) ? PROTO_OK : PROTO_E_LENGTH;
}

int proto_unpack_hello(const proto_frame_t *f, proto_hello_t *m)
{
    int rc = check(f, PROTO_T_HELLO, PROTO_LEN_HELLO);
    if (rc)
        return rc;
    const uint8_t *p = f->payload;
    p = get32(p, &m->boot_id);
    p = get32(p, &m->schema);
    p = get8(p, &m->fw_major);
    p = get8(p, &m->fw_minor);
    p = get8(p, &m->fw_patch);
    p = get8(p, &m->caps);
    p = get8(p, &m->ring_size);
    get32(p, &m->uptime_ms);
    return PROTO_OK;
}

int proto_unpack_state(const proto_frame_t *f, proto_state_t *m)
{
    if (f->type != PROTO_T_HEARTBEAT && f->type != PROTO_T_STATE)
        return PROTO_E_TYPE;
    int rc = check(f, f->type, PROTO_LEN_STATE);
    if (rc)
        return rc;
    const uint8_t *p = f->payload;
    p = get32(p, &m->boot_id);
    p = get32(p, &m->uptime_ms);
    p = get8(p, &m->beams);
    p = get32(p, &m->total_in);
    p = get32(p, &m->total_out);
    p = get32(p, &m->next_event_id);
    p = get8(p, &m->unacked);
    p = get16(p, &m->dropped_in);
    get16(p, &m->dropped_out);
    return PROTO_OK;
}

int proto_unpack_event(const proto_frame_t *f, proto_event_t *m)
{
    int rc = check(f, PROTO_T_EVENT, PROTO_LEN_EVENT);
    if (rc)
        return rc;
    const uint8_t *p = f->payload;
    p = get32(p, &m->boot_id);
    p = get32(p, &m->event_id);
    p = get8(p, &m->beam);
    p = get8(p, &m->flags);
    p = get8(p, &m->count);
    p = get32(p, &m->t_ms);
    p = get32(p, &m->width_us);
    p = get32(p, &m->median_us);
    p = get32(p, &m->total_in);
    p = get32(p, &m->total_out);
    p = get16(p, &m->r);
    p = get16(p, &m->g);
    p = get16(p, &m->b);
    get16(p, &m->c);
    return PROTO_OK;
}

int proto_unpack_ack(const proto_frame_t *f, proto_ack_t *m)
{
    int rc = check(f, PROTO_T_ACK, PROTO_LEN_ACK);
    if (rc)
        return rc;
    const uint8_t *p = get32(f->payload, &m->boot_id);
    get32(p, &m->event_id);
    return PROTO_OK;
}

int proto_unpack_hello_ack(const proto_frame_t *f, uint32_t *boot_id)
{
    int rc = check(f, PROTO_T_HELLO_ACK, PROTO_LEN_HELLO_ACK);
    if (rc)
        return rc;
    get32(f->payload, boot_id);
    return PROTO_OK;
}
