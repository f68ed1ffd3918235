/* capture/capture.h - the capture module's one header. */
#ifndef IOREEL_CAPTURE_H
#define IOREEL_CAPTURE_H
#include "formats/reel.h"

int cmd_capture(int argc, char **argv);

#endif
