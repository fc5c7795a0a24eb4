/* The ways a cell runs (guest.h), and which one a run takes. */
#include "run/guest/guest.h"

extern const struct guest_ops guest_own, guest_shared, guest_host;

const struct guest_ops *guest_way(const struct run_ctx *c)
{
	return c->target_host ? &guest_host : c->o->boot_per_cell ? &guest_own : &guest_shared;
}
