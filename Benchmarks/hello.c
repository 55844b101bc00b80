/* The bare-server limit for Benchmarks/http.sh: libmicrohttpd answering every request with the same
   60-byte JSON body, with the same daemon shape passwright serve uses (an internal epoll thread pool
   of 2, keep-alive). Whatever Passwright costs above this is Passwright's own.

   cc -O2 -o hello Benchmarks/hello.c $(pkg-config --cflags --libs libmicrohttpd); ./hello PORT

   BURN_US=50 ./hello PORT spins for 50 µs (wall time, in user space) before each answer: a server that
   works as long as Passwright does per request, to see what the kernel costs a server that is slower
   than wrk on the same cores (BENCHMARKS.md, "What is left of a request").

   BODY_BYTES=66000 ./hello PORT answers with that many bytes instead (a pass archive's size, sent from
   memory with no work at all): what moving a get pass's answer through the loopback costs the server
   and wrk, the limit of get pass on this machine ("Get pass against a pass-sized answer"). */
#include <microhttpd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static long burn_ns;
static char *big_body;
static size_t big_body_size;

static void burn(void) {
    struct timespec start, now;
    clock_gettime(CLOCK_MONOTONIC, &start);
    do {
        clock_gettime(CLOCK_MONOTONIC, &now);
    } while ((now.tv_sec - start.tv_sec) * 1000000000L + (now.tv_nsec - start.tv_nsec) < burn_ns);
}

static const char body[] = "{\"lastUpdated\":\"1700000000\",\"serialNumbers\":[\"bench-1\"]}\n";

static enum MHD_Result answer(void *cls, struct MHD_Connection *connection, const char *url, const char *method,
                              const char *version, const char *upload, size_t *upload_size, void **state) {
    (void)cls; (void)url; (void)method; (void)version; (void)upload;
    if (*state == NULL) { *state = connection; return MHD_YES; } /* headers first, then the (empty) body */
    if (*upload_size != 0) { *upload_size = 0; return MHD_YES; }
    if (burn_ns > 0) burn();
    struct MHD_Response *response = big_body != NULL
        ? MHD_create_response_from_buffer(big_body_size, big_body, MHD_RESPMEM_PERSISTENT)
        : MHD_create_response_from_buffer(sizeof body - 1, (void *)body, MHD_RESPMEM_PERSISTENT);
    MHD_add_response_header(response, "Content-Type", big_body != NULL ? "application/vnd.apple.pkpass" : "application/json");
    enum MHD_Result result = MHD_queue_response(connection, MHD_HTTP_OK, response);
    MHD_destroy_response(response);
    return result;
}

int main(int argc, char **argv) {
    burn_ns = getenv("BURN_US") ? atol(getenv("BURN_US")) * 1000L : 0;
    if (getenv("BODY_BYTES") && atol(getenv("BODY_BYTES")) > 0) {
        big_body_size = (size_t)atol(getenv("BODY_BYTES"));
        big_body = malloc(big_body_size);
        if (big_body == NULL) { fprintf(stderr, "hello: no memory for the body\n"); return 1; }
        for (size_t i = 0; i < big_body_size; i++) big_body[i] = (char)(i * 2654435761u >> 24);
    }
    if (argc != 2) { fprintf(stderr, "usage: %s PORT\n", argv[0]); return 64; }
    struct MHD_Daemon *daemon = MHD_start_daemon(
        MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL, (uint16_t)atoi(argv[1]), NULL, NULL, answer, NULL,
        MHD_OPTION_THREAD_POOL_SIZE, 2, MHD_OPTION_CONNECTION_TIMEOUT, 30, MHD_OPTION_END);
    if (daemon == NULL) { fprintf(stderr, "hello: cannot listen on %s\n", argv[1]); return 1; }
    sigset_t signals;
    sigemptyset(&signals);
    sigaddset(&signals, SIGTERM);
    sigaddset(&signals, SIGINT);
    sigprocmask(SIG_BLOCK, &signals, NULL);
    int signal_number;
    sigwait(&signals, &signal_number);
    MHD_stop_daemon(daemon);
    return 0;
}
