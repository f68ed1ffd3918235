/* placeholder: replaced by the replay work */
#include <stdio.h>
#include "replay/replay.h"
int cmd_replay(int argc, char **argv)
{
	fprintf(stderr, "ioreel replay: not built yet\n");
	return 2;
}
