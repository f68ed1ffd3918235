/* replay/replay.h - the replay module's one header. */
#ifndef IOREEL_REPLAY_H
#define IOREEL_REPLAY_H
#include "formats/reel.h"

int cmd_replay(int argc, char **argv);

#endif
