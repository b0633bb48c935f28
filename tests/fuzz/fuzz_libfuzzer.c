/*
 * fuzz_libfuzzer.c — the targets of fuzz_targets.c for libFuzzer, for long runs (README.md):
 *   clang -fsanitize=fuzzer,address -DFUZZ_TARGET=fuzz_scenario ... fuzz_libfuzzer.c
 * FUZZ_TARGET names the target function (fuzz_scenario, fuzz_platform, fuzz_override,
 * fuzz_algorithm, fuzz_platform_xml).
 */
#include "fuzz_targets.h"

#ifndef FUZZ_TARGET
#define FUZZ_TARGET fuzz_scenario
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    (void)FUZZ_TARGET(data, size);
    return 0;
}
