/*
 * engine.h — one simulation: the platform, the ranks placed on its hosts, one actor per rank.
 *
 * The engine owns the SimGrid engine for the life of the process (SimGrid cannot be started
 * twice), so one process runs one simulation; sweeps fork or run one process per point.
 * Everything a rank needs at run time hangs off its `struct sim_rank`, reachable from the
 * current actor in O(1).
 */
#ifndef COLLSIM_SIM_ENGINE_H
#define COLLSIM_SIM_ENGINE_H

#include <glib.h>
#include <simgrid/forward.h>

#include "models/model_network.h"
#include "models/model_transport.h"
#include "sim/core/core.h"

/*
 * The flat cluster generated when no platform is given: one single-core host per rank, each
 * with a private full-duplex link to a non-blocking switch (no backbone limit). A message
 * crosses two links, whose latency and bandwidth are the network preset's (ib-edr by
 * default: 2 x 0.3 us, 12.5 GB/s); the node's loopback has the preset's intra-node numbers.
 * Hosts compute at 10 Gflop/s. platforms/cluster.xml is the default cluster for 1024 hosts.
 */
#define SIM_DEFAULT_SPEED "10Gf"
/* the same as a number (SimGrid reads "10Gf" as 10 * 1e9) */
#define SIM_DEFAULT_SPEED_FLOPS 1e10

/* The default cluster of `nhosts` hosts: SimGrid's platform XML (caller frees), and the same
 * cluster as collsim's own core simulates it (sim/core/platform.h). */
gchar *sim_engine_default_platform_xml(int nhosts, const struct model_network *network);
void sim_engine_default_cluster(int nhosts, const struct model_network *network,
                                struct core_flat_cluster *cluster);

/* SimGrid's default precision/timing: a sleep or a timed wait shorter than this never ends, so
 * the engine rounds busy times up to it and treats events closer than it as due now. */
#define SIM_CLOCK_RESOLUTION 1e-9

enum sim_placement {
    SIM_PLACEMENT_BLOCK,    /* fill each host's cores in host order */
    SIM_PLACEMENT_CYCLIC,   /* one rank per host per round */
    SIM_PLACEMENT_RANDOM,   /* a seeded shuffle of the platform's cores */
    SIM_PLACEMENT_HOSTFILE, /* a host per rank from a file */
};
enum sim_payload { SIM_PAYLOAD_DATA, SIM_PAYLOAD_NONE };

/*
 * Which core runs the ranks and times them (sim/core/core.h). Both give the same simulated
 * times; collsim's own core is several times faster, and models what SimGrid's CM02, LV08 and
 * SMPI network models and its Cas01 CPU model do on platforms without profiles or Wi-Fi.
 * AUTO takes it whenever it models the run, and SimGrid otherwise.
 */
enum sim_engine_choice { SIM_ENGINE_AUTO, SIM_ENGINE_SIMGRID, SIM_ENGINE_COLLSIM };

/* "auto", "simgrid", "collsim" into *choice; FALSE for anything else. */
gboolean sim_engine_parse(const char *text, enum sim_engine_choice *choice);

/*
 * How collsim's own core gives its ranks stacks (sim/core/core.h: core_setup). SHARED: they
 * take turns on one stack, a stopped rank's frames copied aside (about 1.3 KiB for a rank in
 * a collective, where a stack of its own costs a page of 4 KiB at least, and the first write
 * to that page is most of a rank's start-up); SEPARATE: a stack each, as SimGrid's core gives
 * them; AUTO: shared wherever the core can (the own core, outside AddressSanitizer builds).
 * A program that keeps large arrays on its stack while it calls MPI pays for copying them at
 * every switch when shared.
 */
enum sim_stacks { SIM_STACKS_AUTO, SIM_STACKS_SHARED, SIM_STACKS_SEPARATE };

/* "auto", "shared", "separate" into *stacks; FALSE for anything else. */
gboolean sim_stacks_parse(const char *text, enum sim_stacks *stacks);

/* The program every rank runs: an ordinary `main`. */
typedef int (*sim_rank_main)(int argc, char **argv);

struct sim_config {
    int nranks;
    const char *platform_file;   /* NULL: a generated flat cluster of nranks hosts */
    enum sim_placement placement;
    guint64 placement_seed;      /* SIM_PLACEMENT_RANDOM */
    const char *placement_file;  /* SIM_PLACEMENT_HOSTFILE */
    gboolean oversubscribe;
    guint stack_kib;             /* per-rank stack in KiB; 0 = automatic (sim_engine_stack_kib) */
    enum sim_stacks stacks;
    enum sim_payload payload;
    const struct model_network *network; /* the preset: SimGrid model, generated links */
    struct model_transport transport;    /* starts as the preset's; options may override */
    double compute_scale;        /* multiplies every op's flops; 0 = free reductions */
    gchar **simgrid_cfg;         /* extra "--cfg=..." / "--log=..." arguments, or NULL */
    sim_rank_main program;
    int argc;                    /* the program's arguments (argv[0] included) */
    char **argv;
    gboolean privatize;          /* give each rank its own copy of the program's globals */
    gpointer privatize_anchor;   /* an address inside the program's shared object */
    double time_limit;           /* simulated seconds after which the run stops; 0 = none */
    double wall_limit;           /* wall-clock seconds after which the run stops; 0 = none */
    gboolean verbose;            /* end-of-run warnings in detail (each object not freed) */
    enum sim_engine_choice engine; /* which discrete-event core runs it (sim/core/core.h) */
};

void sim_config_defaults(struct sim_config *config);

/* "block", "cyclic", "random:SEED", "hostfile:FILE" into config (FILE is not copied). */
gboolean sim_placement_parse(const char *text, struct sim_config *config, GError **error);

/*
 * The stack each rank gets, and whether a guard page ends it. Guard pages cost two memory
 * mappings per rank (the kernel allows 65530), so they protect runs of up to 16384 ranks,
 * whose stacks are then large (256 KiB, touched only as used). Larger runs get small stacks
 * without guard (SimGrid then zeroes them, so they cost their full size): 16 KiB up to
 * 262144 ranks, 8 KiB beyond. An explicit size keeps the guard page up to 16384 ranks.
 */
guint sim_engine_stack_kib(const struct sim_config *config);
gboolean sim_engine_stack_guarded(const struct sim_config *config);

/* Whether the ranks of `config` will share one stack if the own core runs them, and that
 * stack's size: --stack-kib, else 256 KiB whatever the ranks (it is one stack, above its guard
 * page, and a rank pays only for the frames it has when it stops). */
gboolean sim_engine_stacks_shared(const struct sim_config *config);
guint sim_engine_shared_stack_kib(const struct sim_config *config);

/* How many calls of a collective one algorithm served. */
struct sim_served {
    int kind;               /* enum coll_kind */
    const char *algorithm;  /* registry name (static) */
    guint64 calls;
};

/* Outcome of one simulation. */
struct sim_outcome {
    int exit_code;        /* 0 if every rank returned 0 after MPI_Finalize */
    double simulated_time;
    guint64 messages;     /* point-to-point messages sent, all ranks */
    guint64 bytes;        /* payload bytes of those messages */
    gsize privatized_bytes_per_rank;
    guint stack_kib;
    gboolean stack_shared; /* the ranks took turns on one stack of stack_kib */
    GArray *served;       /* struct sim_served, sorted by kind then name; caller frees */
    enum core_kind core;  /* the core that ran it */
};

/* Load SimGrid now if a run of `config` will need it (simgrid_glue.h): the runs a process
 * forks then inherit it instead of loading it each (about 50 ms a run). */
void sim_engine_preload(const struct sim_config *config);

/*
 * Run `config->program` on every rank until all return. Errors that stop the run before it
 * starts (bad platform, too many ranks) are reported through `error`; errors during the run
 * (MPI errors, aborts, deadlocks) are printed and reflected in outcome->exit_code.
 */
gboolean sim_engine_run(const struct sim_config *config, struct sim_outcome *outcome,
                        GError **error);

/*
 * Validate a platform file as sim_engine_run() would (in a child process, since SimGrid
 * starts only once per process and aborts on a bad file) and count its cores: the sum of
 * every host's core count. Lets a caller judge a sweep's rank counts before running anything.
 */
gboolean sim_engine_platform_cores(const char *path, guint64 *cores, GError **error);

/*
 * The same inspection, without the count, for a caller that tries many files (the fuzzer of
 * platform files): SimGrid gets `load_seconds` to load the file instead of the two minutes a
 * large platform may need. FALSE with one line naming the file when it is malformed, has a
 * defect, or SimGrid hangs or dies on it.
 */
gboolean sim_engine_check_platform(const char *path, guint load_seconds, GError **error);

/* Try SimGrid configuration items ("NAME:VALUE", as given to --cfg) before a run: FALSE with
 * "--cfg ITEM: SimGrid's reason" for the first SimGrid refuses. */
gboolean sim_engine_check_cfg(gchar **items, GError **error);

#define SIM_ERROR (sim_error_quark())
GQuark sim_error_quark(void);
enum { SIM_ERROR_PLATFORM, SIM_ERROR_PLACEMENT, SIM_ERROR_PROGRAM };

/* Exit codes of a simulation that ended badly. */
#define SIM_EXIT_DEADLOCK 4
#define SIM_EXIT_NO_FINALIZE 5
#define SIM_EXIT_CRASH 6
#define SIM_EXIT_MISMATCH 7   /* collective calls that do not match (src/coll_check.h) */
#define SIM_EXIT_LIMIT 8      /* --time-limit or --wall-limit reached */

#endif
