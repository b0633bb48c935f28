/*
 * getopt_ranks.c — every rank parses the same command line with getopt_long, as each process
 * of a real MPI job does: `-v -n 5 --size=64 -qx input.dat` (grouped short options, a long
 * option with =, an operand). Half of the ranks parse before MPI_Init, the others after it
 * and after a barrier, so that parses of different ranks interleave with switches between
 * them; then every rank parses again after setting optind = 1 (POSIX's restart) and
 * opterr = 0, with an option string that makes one option unknown. Open MPI's mpirun gives
 * each rank exactly these values (separate processes). Before collsim kept getopt's state per
 * rank, the second rank to parse found no option at all (tests/exec/test_exec.sh).
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "expect_values.h"

struct parsed {
    int verbose, n, size, quiet, x, unknown;
    const char *operand;
};

static struct parsed
parse_long(int argc, char **argv, const char *optstring)
{
    static const struct option longopts[] = {{"size", required_argument, NULL, 's'},
                                             {"verbose", no_argument, NULL, 'v'},
                                             {NULL, 0, NULL, 0}};
    struct parsed p = {0, -1, -1, 0, 0, 0, NULL};
    int c;
    while ((c = getopt_long(argc, argv, optstring, longopts, NULL)) != -1) {
        switch (c) {
        case 'v': p.verbose = 1; break;
        case 'n': p.n = atoi(optarg); break;
        case 's': p.size = atoi(optarg); break;
        case 'q': p.quiet = 1; break;
        case 'x': p.x = 1; break;
        default: p.unknown++; break;
        }
    }
    p.operand = optind < argc ? argv[optind] : NULL;
    return p;
}

static int
as_expected(const struct parsed *p)
{
    return p->verbose == 1 && p->n == 5 && p->size == 64 && p->quiet == 1 && p->x == 1 &&
           p->unknown == 0 && p->operand != NULL && strcmp(p->operand, "input.dat") == 0;
}

int
main(int argc, char **argv)
{
    struct parsed first;
    int early = 0;
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    early = rank % 2 == 0;
    if (early)
        first = parse_long(argc, argv, "vn:qx");
    MPI_Barrier(MPI_COMM_WORLD);
    if (!early)
        first = parse_long(argc, argv, "vn:qx");
    expect(as_expected(&first), rank, early ? "the parse before the barrier"
                                            : "the parse after the barrier");

    /* again from the start (POSIX's optind = 1), errors silenced, without 'x' in the option
     * string: "-qx" now gives 'q', then '?' with optopt 'x', and nothing is printed */
    MPI_Barrier(MPI_COMM_WORLD);
    optind = 1;
    opterr = 0;
    struct parsed again = parse_long(argc, argv, "vn:q");
    expect(again.verbose == 1 && again.n == 5 && again.size == 64 && again.quiet == 1 &&
               again.x == 0 && again.unknown == 1 && optopt == 'x' && again.operand != NULL &&
               strcmp(again.operand, "input.dat") == 0,
           rank, "the restarted parse");
    report_failures("getopt", rank, size);
    MPI_Finalize();
    return 0;
}
