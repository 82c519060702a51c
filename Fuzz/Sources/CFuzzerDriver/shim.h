#include <stddef.h>
#include <stdint.h>

// libFuzzer's entry point for a program that has a main of its own (llvm.org/docs/LibFuzzer.html,
// "Using libFuzzer as a library"). SwiftPM gives every executable target a main (it renames the
// entry point so that tests can link it), so the fuzzers call this from their main.swift instead of
// leaving main to libFuzzer (FuzzSupport.runFuzzer). No library to link: -sanitize=fuzzer links libFuzzer.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));
