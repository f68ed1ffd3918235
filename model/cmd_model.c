/* placeholder: replaced by the model work */
#include <stdio.h>
#include "model/model.h"
int cmd_model(int argc, char **argv)
{
	fprintf(stderr, "ioreel model: not built yet\n");
	return 2;
}
