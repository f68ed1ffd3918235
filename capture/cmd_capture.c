/* placeholder: replaced by the capture work */
#include <stdio.h>
#include "capture/capture.h"
int cmd_capture(int argc, char **argv)
{
	fprintf(stderr, "ioreel capture: not built yet\n");
	return 2;
}
