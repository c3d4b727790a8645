package agents

import "context"

// PresaleChecker tells whether a wallet bought the service's native token in
// its presale (implemented on chain by adapters/solanarpc). Presale buyers
// pay 80 % of list prices once their wallet is linked.
//
// IsPresaleBuyer returns toolkit.Unavailable when the lookup cannot be made;
// link-wallet then links with is_presale_buyer false and says so, and
// linking again retries.
type PresaleChecker interface {
	IsPresaleBuyer(ctx context.Context, wallet WalletAddress) (bool, error)
}
