/* floor.cu: the power-floor probe (CUDA C++ only: OpenCL has no sleep).
 *
 * 132 blocks of one warp each sleep on __nanosleep until ~2 ms of
 * globaltimer time have passed.  Up to 32 such blocks fit on one SM, so at
 * every SM level all of them are resident at once and the launch takes the
 * same time: the board draws its "clocks up, SMs resident, nothing issuing"
 * power, the floor below every kernel's power that the model uses. */
#include "sp_port.h"

SP_FN unsigned long long globaltimer_ns(void)
{
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

SP_KERNEL void idle_spin(uint *out, uint ns)
{
  const unsigned long long t0 = globaltimer_ns();
  while (globaltimer_ns() - t0 < ns)
    __nanosleep(1000);
  if (threadIdx.x == 0)
    out[blockIdx.x] = blockIdx.x;
}

/* The same 132 one-warp blocks spinning on the timer without sleeping:
 * every warp issues all the time but does no useful work. */
SP_KERNEL void busy_spin(uint *out, uint ns)
{
  const unsigned long long t0 = globaltimer_ns();
  uint spins = 0;
  while (globaltimer_ns() - t0 < ns)
    ++spins;
  if (threadIdx.x == 0)
    out[blockIdx.x] = blockIdx.x + (spins == 0u ? 1u : 0u);
}
