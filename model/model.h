/* model/model.h - the model module's one header. */
#ifndef IOREEL_MODEL_H
#define IOREEL_MODEL_H
#include "formats/reel.h"

int cmd_model(int argc, char **argv);

#endif
