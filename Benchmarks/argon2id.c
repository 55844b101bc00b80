/* argon2id's cost for Benchmarks/signin.sh: COUNT hashes of a 28-byte password, each with a fresh
   16-byte salt, through argon2id_hash_encoded (the call Passwords makes) into a 32-byte hash. Prints
   one line per hash: its wall time and the process's CPU time (all of libargon2's lane threads) in ms.

   cc -O2 -o argon2id Benchmarks/argon2id.c $(pkg-config --cflags --libs libargon2)
   ./argon2id MEMORY_KIB ITERATIONS PARALLELISM COUNT */
#include <argon2.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/random.h>
#include <time.h>

static double ms_between(struct timespec a, struct timespec b) {
    return (b.tv_sec - a.tv_sec) * 1e3 + (b.tv_nsec - a.tv_nsec) / 1e6;
}

int main(int argc, char **argv) {
    if (argc != 5) {
        fprintf(stderr, "usage: %s MEMORY_KIB ITERATIONS PARALLELISM COUNT\n", argv[0]);
        return 64;
    }
    uint32_t m = strtoul(argv[1], NULL, 10), t = strtoul(argv[2], NULL, 10), p = strtoul(argv[3], NULL, 10);
    int count = atoi(argv[4]);
    static const char password[] = "correct horse battery staple";
    unsigned char salt[16];
    char encoded[160];
    for (int i = 0; i < count; i++) {
        if (getrandom(salt, sizeof salt, 0) != sizeof salt) return 1;
        struct timespec wall0, wall1, cpu0, cpu1;
        clock_gettime(CLOCK_MONOTONIC, &wall0);
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &cpu0);
        int rc = argon2id_hash_encoded(t, m, p, password, sizeof password - 1, salt, sizeof salt, 32, encoded, sizeof encoded);
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &cpu1);
        clock_gettime(CLOCK_MONOTONIC, &wall1);
        if (rc != ARGON2_OK) {
            fprintf(stderr, "argon2id: %s\n", argon2_error_message(rc));
            return 1;
        }
        printf("%.3f %.3f\n", ms_between(wall0, wall1), ms_between(cpu0, cpu1));
    }
    return 0;
}
