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

/* 0 when each output path out[0..nout) names a file of its own: not the
 * file of an input in[0..nin) (one path however spelled, a hard link to
 * it, an input that is a symlink to it), which writing the output would
 * replace, nor that of another output, where one output would be lost;
 * else -1 after saying which two on stderr as cmd (outputs.c).  Called
 * before any work, so a refused command writes nothing. */
int cli_check_outputs(const char *cmd, const char *const *in, int nin, const char *const *out,
                      int nout);

#endif
