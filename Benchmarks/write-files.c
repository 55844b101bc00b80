/* The file system's limit for batch output: writes COUNT copies of one file into FOLDER the way
 * `passwright batch` writes passes (an unnamed O_TMPFILE file, linked into place, no fsync), then one
 * sync(), and prints files per second. Nothing is built or signed, so this is the ceiling of the
 * writing alone.
 *
 *   write-files COUNT SAMPLE FOLDER
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv) {
    if (argc != 4) { fprintf(stderr, "usage: write-files COUNT SAMPLE FOLDER\n"); return 2; }
    long count = atol(argv[1]);
    FILE *sample = fopen(argv[2], "rb");
    if (!sample) { perror(argv[2]); return 1; }
    static char data[16 << 20];
    size_t size = fread(data, 1, sizeof data, sample);
    fclose(sample);
    if (mkdir(argv[3], 0755) != 0) { perror(argv[3]); return 1; }
    struct timespec start, end;
    clock_gettime(CLOCK_MONOTONIC, &start);
    for (long i = 0; i < count; i++) {
        int fd = open(argv[3], O_TMPFILE | O_WRONLY | O_CLOEXEC, 0644);
        if (fd < 0) { perror("open"); return 1; }
        if (write(fd, data, size) != (ssize_t)size) { perror("write"); return 1; }
        char self[32], name[4096];
        snprintf(self, sizeof self, "/proc/self/fd/%d", fd);
        snprintf(name, sizeof name, "%s/B%07ld.pkpass", argv[3], i);
        if (linkat(AT_FDCWD, self, AT_FDCWD, name, AT_SYMLINK_FOLLOW) != 0) { perror("linkat"); return 1; }
        close(fd);
    }
    sync();
    clock_gettime(CLOCK_MONOTONIC, &end);
    double seconds = (double)(end.tv_sec - start.tv_sec) + (double)(end.tv_nsec - start.tv_nsec) / 1e9;
    printf("%.0f\n", (double)count / seconds);
    return 0;
}
