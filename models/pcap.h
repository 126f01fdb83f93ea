/* pcap.h - packet captures: what tcpdump would have recorded on a simulated device.
 *
 * A PcapWriter writes a classic pcap file with nanosecond timestamps (libpcap's own writer),
 * Ethernet link type, one record per skb with real IPv4 and TCP headers: total length, IP
 * checksum, TCP checksum (over the virtual all-zero payload), seq/ack (low 32 bits of the
 * model's 64-bit sequence space), flags, window, options NOP NOP TS and NOP NOP SACK (the first
 * block a DSACK where the skb says so). Payload bytes are zeros, cut at snaplen. The file is
 * written under a temporary name and renamed at close, so a crashed run leaves no half file
 * under the final name.
 *
 * Conventions, since the model has no addresses: host id i is 10.0.x.y with x.y = i + 1
 * (10.0.0.1 for host 0) and MAC 02:00:00:00:x:y. The model's connections exist before the run
 * starts; pcap_writer_add_connection() writes a handshake for each at the capture's start
 * (SYN, SYN-ACK, ACK with MSS, SACK-permitted, timestamps and window-scale options, ISN 0), so
 * tools learn each end's window scale, and each end's window field is then its advertised window
 * shifted by its own scale, as on the wire (>> 7 for an end the capture was not told about).
 * IP ID counts records per writer; times are simulated time since the epoch; a
 * socket's port N (the sk=N of the event log) is written as PCAP_PORT_BASE + N, in Linux's
 * ephemeral range (ip_local_port_range 32768-60999), because ports 1, 2, ... would make tshark
 * decode the payload as SSH (22), DNS (53), TIME (37) and so on and report it malformed.
 *
 * Without libpcap (SKSIM_HAVE_PCAP undefined) pcap_writer_open fails with an error.
 */
#ifndef SKSIM_PCAP_H
#define SKSIM_PCAP_H

#include <glib.h>
#include <stdint.h>

#include "models/skb.h"
#include "sim/simtime.h"

typedef struct PcapWriter PcapWriter;

/* The window scale applied to Skb.win in captures. */
#define PCAP_WSCALE 7u
/* Added to the model's port numbers in captures: sk=1 is port 32768. */
#define PCAP_PORT_BASE 32767u

PcapWriter *pcap_writer_open(const char *path, uint32_t snaplen, GError **error);
/* One end of a connection, as its SYN would show it. */
typedef struct PcapEndpoint {
    uint16_t host, port; /* the model's host id and port (sk=N) */
    uint8_t wscale;      /* the window scale it applies to its advertised window */
    uint16_t mss;        /* the MSS option of its SYN */
} PcapEndpoint;
/* Record the handshake of a connection opened by `client` at time t (a SYN from it, the
 * SYN-ACK, the ACK), and from then on write each end's windows with its own scale. */
void pcap_writer_add_connection(PcapWriter *w, sim_time_t t, const PcapEndpoint *client,
                                const PcapEndpoint *server, bool sack, bool ts);
/* One packet as tcpdump would see it at time t. */
void pcap_writer_write(PcapWriter *w, sim_time_t t, const Skb *skb);
/* Flush, close and rename into place; frees w whatever the outcome. */
gboolean pcap_writer_close(PcapWriter *w, GError **error);
uint64_t pcap_writer_packets(const PcapWriter *w);

#endif
