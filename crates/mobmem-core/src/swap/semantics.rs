//! How swap behaves: a setting the plan resolves and the engine follows (a leaf, so the plan
//! does not read the engine).

/// What a swap-in keeps and what a first touch of an anon page reads. Linux keeps the swap copy of
/// a page read back until the page is written (the swap cache), and zero-fills a new anon page.
/// The SPO-CLOCK paper can be read otherwise (docs/POLICIES.md): its swap holds the whole memory
/// image, and swap writes dominate whatever the policy.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SwapSemantics {
    /// A swapped-in page keeps its copy until written; `false`: the copy is dropped at swap-in, so
    /// the page is written to swap again when it is evicted.
    pub swap_cache: bool,
    /// A first touch of an anon page reads its image from swap instead of zero-filling it (the
    /// page then has no valid copy, as after a write).
    pub first_touch_from_swap: bool,
}

impl SwapSemantics {
    pub const LINUX: SwapSemantics = SwapSemantics { swap_cache: true, first_touch_from_swap: false };
}
