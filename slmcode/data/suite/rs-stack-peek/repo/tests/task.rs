use stack::Stack;

#[test]
fn peek_shows_the_top_and_keeps_it() {
    let mut s = Stack::new();
    s.push('a');
    assert_eq!(s.peek(), Some(&'a'));
    assert_eq!(s.len(), 1);
}
