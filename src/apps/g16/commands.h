/* Every subcommand of g16, one header so main.c's table has one include. */
#ifndef G16_CLI_COMMANDS_H
#define G16_CLI_COMMANDS_H

#include <stddef.h>

#include "info.h"
#include "prove.h"
#ifdef G16_CLI_VERIFY
#include "verify.h"
#endif
#ifdef G16_CLI_SETUP
#include "setup.h"
#endif
#ifdef G16_CLI_CLIENT
#include "client.h"
#endif
#ifdef G16_CLI_EXPORT
#include "export.h"
#endif
#ifdef G16_CLI_WTNS
#include "wtns.h"
#endif

/* Monotonic seconds, for the commands that report their time (main.c). */
double cli_seconds(void);

/* A byte size: a number with an optional K, M, G or T (binary units,
 * "Ki"/"KiB" accepted); 0 or -1 (not a size) (main.c). */
int cli_parse_size(const char *s, size_t *out);

/* 0 when the output paths a and b name two files; -1, saying so on
 * stderr as cmd, when they name one (the same path however spelled, or
 * hard links to one inode), where writing both would lose one
 * (outputs.c). */
int cli_distinct_outputs(const char *cmd, const char *a, const char *b);

#endif
