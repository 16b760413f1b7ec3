use stack::Stack;

#[test]
fn peek_and_len() {
    let mut s = Stack::new();
    assert_eq!(s.peek(), None);
    assert_eq!(s.len(), 0);
    s.push(1);
    s.push(2);
    assert_eq!(s.peek(), Some(&2));
    assert_eq!(s.len(), 2);
    assert_eq!(s.pop(), Some(2));
    assert_eq!(s.len(), 1);
}
