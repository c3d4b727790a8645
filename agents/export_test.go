package agents

// TakeWalletSearches takes every challenge-search slot of s, as that many
// searches running at once would, and returns the function that gives
// them back.
func TakeWalletSearches(s *Service) (release func()) {
	n := cap(s.searches)
	for range n {
		s.searches <- struct{}{}
	}
	return func() {
		for range n {
			<-s.searches
		}
	}
}
