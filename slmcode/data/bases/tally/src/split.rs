use crate::money::Amount;

/// Share `total` between `people` as evenly as whole cents allow: the first ones take the odd cents, so the
/// shares always add up to the total.
pub fn split_evenly(total: Amount, people: usize) -> Vec<Amount> {
    assert!(people > 0, "cannot split between nobody");
    let n = people as i64;
    let base = total.0 / n;
    let rest = total.0 % n;
    (0..n).map(|i| Amount(base + if i < rest.abs() { rest.signum() } else { 0 })).collect()
}

/// Shares in proportion to whole-number weights (2:1:1), the odd cents again going to the first ones.
pub fn split_by_weight(total: Amount, weights: &[u32]) -> Vec<Amount> {
    let sum: i64 = weights.iter().map(|&w| w as i64).sum();
    assert!(sum > 0, "weights must not all be zero");
    let mut shares: Vec<i64> = weights.iter().map(|&w| total.0 * w as i64 / sum).collect();
    let mut left = total.0 - shares.iter().sum::<i64>();
    let count = shares.len();
    let mut i = 0;
    while left != 0 {
        shares[i % count] += left.signum();
        left -= left.signum();
        i += 1;
    }
    shares.into_iter().map(Amount).collect()
}
