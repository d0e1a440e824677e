/*
 * proto.h - the tower sensor board's serial protocol (see ../PROTOCOL.md).
 *
 * Pure C99 with no AVR dependency, so the same file is compiled into the
 * firmware by avr-gcc and into a host test tool by gcc: both sides of the
 * protocol are checked against one set of test vectors (../test_vectors.json).
 *
 * A frame on the wire is COBS(version, type, seq, payload, crc16) followed by
 * one 0x00 delimiter. Multi-byte numbers are little-endian; the CRC is
 * CRC-16/CCITT-FALSE (polynomial 0x1021, initial value 0xFFFF).
 */
#ifndef TOWER_PROTO_H
#define TOWER_PROTO_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PROTO_VERSION 1

#define PROTO_HEADER_LEN 4      /* version, type, seq (u16) */
#define PROTO_CRC_LEN 2
#define PROTO_MAX_PAYLOAD 48
#define PROTO_MAX_FRAME (PROTO_HEADER_LEN + PROTO_MAX_PAYLOAD + PROTO_CRC_LEN)
/* COBS adds one code byte per started block of 254 bytes; then the delimiter. */
#define PROTO_MAX_WIRE (PROTO_MAX_FRAME + PROTO_MAX_FRAME / 254 + 1 + 1)

/* Board to host. */
#define PROTO_T_HELLO 0x01
#define PROTO_T_HEARTBEAT 0x02
#define PROTO_T_EVENT 0x03
#define PROTO_T_STATE 0x04
/* Host to board. */
#define PROTO_T_HELLO_REQ 0x80
#define PROTO_T_HELLO_ACK 0x81
#define PROTO_T_ACK 0x82
#define PROTO_T_STATE_REQ 0x83

/* Payload lengths: every type has exactly one length in this version. */
#define PROTO_LEN_HELLO 17
#define PROTO_LEN_STATE 26 /* HEARTBEAT and STATE share this layout */
#define PROTO_LEN_EVENT 39
#define PROTO_LEN_HELLO_REQ 0
#define PROTO_LEN_HELLO_ACK 4
#define PROTO_LEN_ACK 8
#define PROTO_LEN_STATE_REQ 0

#define PROTO_BEAM_IN 0
#define PROTO_BEAM_OUT 1

/* EVENT flags */
#define PROTO_F_DOUBLE 0x01  /* much wider than the running median: likely two drinks */
#define PROTO_F_HELD 0x02    /* reported while still blocked (held longer than the hold time) */
#define PROTO_F_COLOUR 0x04  /* the colour fields hold a reading */
#define PROTO_F_RESENT 0x08  /* this copy is a re-send of an unacknowledged event */

/* HELLO capabilities */
#define PROTO_CAP_COLOUR 0x01 /* a TCS34725 answered at boot */

/* Decoder / parser results */
#define PROTO_OK 0
#define PROTO_E_COBS (-1)      /* not a valid COBS block */
#define PROTO_E_SHORT (-2)     /* shorter than header + CRC */
#define PROTO_E_LONG (-3)      /* longer than the largest frame */
#define PROTO_E_CRC (-4)       /* checksum mismatch */
#define PROTO_E_LENGTH (-5)    /* payload length wrong for its type */
#define PROTO_E_VERSION (-6)   /* a version this code does not speak */
#define PROTO_E_TYPE (-7)      /* unknown message type */

typedef struct {
    uint8_t version;
    uint8_t type;
    uint16_t seq;
    uint8_t len;
    uint8_t payload[PROTO_MAX_PAYLOAD];
} proto_frame_t;

typedef struct {
    uint32_t boot_id;
    uint32_t schema;
    uint8_t fw_major, fw_minor, fw_patch;
    uint8_t caps;
    uint8_t ring_size;
    uint32_t uptime_ms;
} proto_hello_t;

typedef struct {
    uint32_t boot_id;
    uint32_t uptime_ms;
    uint8_t beams; /* bit0: input beam blocked, bit1: exit beam blocked */
    uint32_t total_in, total_out;
    uint32_t next_event_id;
    uint8_t unacked;
    uint16_t dropped_in, dropped_out; /* passes counted but not kept: ring was full */
} proto_state_t;

typedef struct {
    uint32_t boot_id;
    uint32_t event_id;
    uint8_t beam;
    uint8_t flags;
    uint8_t count; /* drinks this pass stands for: 1, or 2 when flagged double */
    uint32_t t_ms; /* board time when the beam was first blocked */
    uint32_t width_us;
    uint32_t median_us; /* running median width of single passes at this beam; 0 = not known yet */
    uint32_t total_in, total_out; /* running totals including this pass */
    uint16_t r, g, b, c;
} proto_event_t;

typedef struct {
    uint32_t boot_id;
    uint32_t event_id;
} proto_ack_t;

/* Streaming decoder: feed bytes one at a time; a complete frame ends at 0x00. */
typedef struct {
    uint8_t buf[PROTO_MAX_FRAME + 2];
    uint8_t len;
    uint8_t overflow;
} proto_decoder_t;

uint16_t proto_crc16(uint16_t crc, const uint8_t *data, size_t len);
#define PROTO_CRC_INIT 0xFFFFu

/* COBS encode n bytes; returns encoded length (no delimiter). out needs n + n/254 + 1. */
size_t proto_cobs_encode(const uint8_t *in, size_t n, uint8_t *out);
/* COBS decode; returns decoded length or PROTO_E_COBS. Decoding in place is allowed. */
int proto_cobs_decode(const uint8_t *in, size_t n, uint8_t *out, size_t out_cap);

/* Build a frame (COBS + 0x00 delimiter) into wire; returns bytes written. */
size_t proto_frame_encode(const proto_frame_t *f, uint8_t *wire);
/* Parse the COBS bytes between two delimiters (not including them). */
int proto_frame_parse(const uint8_t *cobs, size_t n, proto_frame_t *f);
/* Length a type must have in this version, or -1 for an unknown type. */
int proto_payload_len(uint8_t type);

void proto_decoder_init(proto_decoder_t *d);
/* Returns 1 and fills f when byte completes a valid frame; a negative PROTO_E_*
 * when it completes a bad one; 0 otherwise. */
int proto_decoder_feed(proto_decoder_t *d, uint8_t byte, proto_frame_t *f);

void proto_pack_hello(const proto_hello_t *m, proto_frame_t *f);
void proto_pack_state(const proto_state_t *m, uint8_t type, proto_frame_t *f);
void proto_pack_event(const proto_event_t *m, proto_frame_t *f);
void proto_pack_ack(const proto_ack_t *m, proto_frame_t *f);
void proto_pack_hello_ack(uint32_t boot_id, proto_frame_t *f);
void proto_pack_empty(uint8_t type, proto_frame_t *f);

int proto_unpack_hello(const proto_frame_t *f, proto_hello_t *m);
int proto_unpack_state(const proto_frame_t *f, proto_state_t *m);
int proto_unpack_event(const proto_frame_t *f, proto_event_t *m);
int proto_unpack_ack(const proto_frame_t *f, proto_ack_t *m);
int proto_unpack_hello_ack(const proto_frame_t *f, uint32_t *boot_id);

/* FNV-1a (32 bit) of the schema text below: both sides must agree on it. */
uint32_t proto_schema_hash(void);
/* Copy the schema text (NUL-terminated) into out; returns its length. Host tool only needs it. */
size_t proto_schema_text(char *out, size_t cap);

#ifdef __cplusplus
}
#endif
#endif
