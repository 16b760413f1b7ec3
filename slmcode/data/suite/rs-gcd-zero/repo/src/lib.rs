/// Greatest common divisor.
pub fn gcd(a: u64, b: u64) -> u64 {
    let r = a % b;
    if r == 0 {
        b
    } else {
        gcd(b, r)
    }
}

/// Least common multiple.
pub fn lcm(a: u64, b: u64) -> u64 {
    a / gcd(a, b) * b
}

#[cfg(test)]
mod tests {
    #[test]
    fn gcd_basic() {
        assert_eq!(super::gcd(12, 18), 6);
    }
}
