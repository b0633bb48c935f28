/*
 * fuzz_targets.h — the inputs collsim reads from users, as fuzz targets: each takes any bytes
 * and must return (0) without crashing, hanging or leaking, whatever they are. The same
 * targets serve the deterministic driver of `make check` (fuzz_driver.c) and libFuzzer
 * (fuzz_libfuzzer.c, for long runs; tests/fuzz/README.md).
 */
#ifndef COLLSIM_FUZZ_TARGETS_H
#define COLLSIM_FUZZ_TARGETS_H

#include <stddef.h>
#include <stdint.h>

/* What a target made of its input, for the driver's counts. */
enum fuzz_outcome { FUZZ_ACCEPTED, FUZZ_REFUSED };

struct fuzz_target {
    const char *name;                                      /* its corpus folder */
    enum fuzz_outcome (*run)(const uint8_t *data, size_t size);
    /* Pieces this input treats specially, which mutations insert besides the driver's own
     * (NULL-terminated; NULL for none). */
    const char *const *tokens;
    /* What one input costs, in inputs of a parser that runs in-process: the deterministic
     * driver gives the target ITERATIONS / cost mutants, so that a target that forks a
     * process per input does not take the whole run's time. */
    unsigned cost;
};

/* A scenario file (collsim run FILE). */
enum fuzz_outcome fuzz_scenario(const uint8_t *data, size_t size);
/* A platform generator spec (--platform NAME:key=value,...). */
enum fuzz_outcome fuzz_platform(const uint8_t *data, size_t size);
/* --set overrides, one per line, applied to a small valid scenario. */
enum fuzz_outcome fuzz_override(const uint8_t *data, size_t size);
/* collsim exec --algorithm values, one per line, as options of one command line. */
enum fuzz_outcome fuzz_algorithm(const uint8_t *data, size_t size);
/* A SimGrid platform file, inspected as collsim run and exec inspect one: in a forked child
 * that starts SimGrid, so an input costs a process (the driver gives it fewer mutants). */
enum fuzz_outcome fuzz_platform_xml(const uint8_t *data, size_t size);

extern const struct fuzz_target fuzz_targets[];
extern const size_t fuzz_target_count;

#endif
