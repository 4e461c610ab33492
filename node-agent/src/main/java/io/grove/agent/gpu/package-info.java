/** The node's GPUs: found with nvidia-smi or declared, given to jobs one by one, checked, taken out of service. */
package io.grove.agent.gpu;
