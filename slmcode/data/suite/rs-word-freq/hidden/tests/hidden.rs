use wordfreq::word_frequencies;

#[test]
fn case_insensitive() {
    let counts = word_frequencies("Rust rust RUST go");
    assert_eq!(counts.get("rust"), Some(&3));
    assert_eq!(counts.get("go"), Some(&1));
    assert_eq!(counts.len(), 2);
}
