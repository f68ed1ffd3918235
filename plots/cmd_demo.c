/* placeholder: replaced by the plots work */
#include <stdio.h>
#include "plots/plots.h"
int cmd_demo(int argc, char **argv)
{
	fprintf(stderr, "ioreel demo: not built yet\n");
	return 2;
}
