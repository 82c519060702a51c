#ifndef PIPELINE_TESTS_CSPAWN_SHIM_H
#define PIPELINE_TESTS_CSPAWN_SHIM_H

// For the tests that start child processes: each child must hold exactly the descriptors it is given, since one
// that also holds another child's pipe keeps that pipe from reaching its end. glibc declares the two calls below
// only under _GNU_SOURCE, which Swift's Glibc module is not built with, so they are declared here; glibc exports
// both from 2.34 on (Debian 12 has 2.36).
#include <spawn.h>

/// pipe(2) with its flags applied to both ends as they are made: with O_CLOEXEC, no process that another thread
/// starts in the meantime inherits them. https://man7.org/linux/man-pages/man2/pipe.2.html
int pipe2(int pipefd[2], int flags);

/// A file action that closes, in the child, every descriptor from `fd` up, whoever opened it and whatever its
/// flags (glibc 2.34 NEWS: close_range(2) in the child, one call however many are open).
int posix_spawn_file_actions_addclosefrom_np(posix_spawn_file_actions_t *actions, int fd);

#endif
