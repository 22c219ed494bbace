pub fn run(_: &[String]) -> crate::Result {
    Err("not yet".into())
}
