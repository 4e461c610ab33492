/**
 * High availability (docs/ha.md): the role as a pure state machine of events and effects
 * ({@link io.grove.server.ha.RoleMachine}), the one interpreter of its effects that the daemon and
 * the simulation both run ({@link io.grove.server.ha.RoleEffects}, behind
 * {@link io.grove.server.ha.RolePort}), and the daemon's side
 * ({@link io.grove.server.ha.HaScheduler}): election, following, the leading daemon, and the
 * routers that answer as the role of the moment.
 */
package io.grove.server.ha;
