/* Every subcommand of g16, one header so main.c's table has one include. */
#ifndef G16_CLI_COMMANDS_H
#define G16_CLI_COMMANDS_H

#include "cli/info.h"
#include "cli/prove.h"
#ifdef G16_CLI_VERIFY
#include "cli/verify.h"
#endif
#ifdef G16_CLI_SETUP
#include "cli/setup.h"
#endif
#ifdef G16_CLI_CLIENT
#include "cli/client.h"
#endif

#endif
