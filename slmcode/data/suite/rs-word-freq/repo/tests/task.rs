use wordfreq::word_frequencies;

#[test]
fn words_are_counted_whatever_their_case() {
    assert_eq!(word_frequencies("Go go").get("go"), Some(&2));
}
