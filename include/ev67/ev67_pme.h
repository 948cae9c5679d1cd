/*
 * ev67_pme.h - the 21264/EV67 ProfileMe sampler's API under the name the command layer
 * includes.  The declarations are in ev67_pme_drv.h: tools/check-layers.sh tells a
 * header's layer by its name (docs/adding-a-family.md), and the sampler's sources in sw/
 * may include only software-layer names such as *_drv.h.
 */
#ifndef EV67_PME_H
#define EV67_PME_H

#include "ev67/ev67_pme_drv.h"

#endif
