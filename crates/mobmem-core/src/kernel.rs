//! Constants of the Linux kernel the models follow, each with where it is in the kernel: a leaf,
//! so a policy reads them without importing the config.

/// Linux's SWAP_CLUSTER_MAX (mm/vmscan.c): the pages one reclaim pass takes, and the least a memory
/// cgroup at its limit reclaims (`try_to_free_mem_cgroup_pages`). linux-2q's scan batches, the
/// phones' reclaim batch and `mobmem kernel-check`'s `reclaim_batch` are this.
pub const SWAP_CLUSTER_MAX: u64 = 32;
