/* Mapped file reads: drops FILE's pages from the page cache (so every run starts cold and its
 * reads are charged to its own cgroup), maps it with MADV_RANDOM (no read-around: one major fault
 * per page read) and reads one byte of every page, PASSES times. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

int main(int argc, char **argv) {
    if (argc < 2) return 2;
    int passes = argc > 2 ? atoi(argv[2]) : 4;
    int fd = open(argv[1], O_RDONLY);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) return 2;
    posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
    volatile char *p = mmap(0, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (p == MAP_FAILED) return 2;
    madvise((void *)p, st.st_size, MADV_RANDOM);
    unsigned long sum = 0;
    for (int k = 0; k < passes; k++)
        for (off_t i = 0; i < st.st_size; i += 4096) sum += p[i];
    printf("%lu\n", sum);
    return 0;
}
