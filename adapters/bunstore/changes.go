package bunstore

import (
	"context"
	"errors"
	"fmt"
	"net"
	"slices"
	"sync"
	"time"

	"github.com/agentfinance/toolkit/agents"
	"github.com/uptrace/bun"
	"github.com/uptrace/bun/driver/pgdriver"
)

var _ agents.ChangeFeed = (*Store)(nil)

// The change feed (agents.ChangeFeed). Every store method that changes an
// agent calls announce inside its transaction and changed after it:
//
//   - on Postgres, announce is a NOTIFY on changeChannel, delivered at
//     commit (and only then) to the LISTEN connection of every instance;
//   - on SQLite, announce inserts a row in agent_changes, which every
//     instance sharing the file polls every sqlitePollEvery;
//   - changed tells this instance's listeners at once, before the method
//     returns, whatever its outcome (a spurious drop costs one read).
//
// The listening goroutine starts with the first subscriber. While its
// connection is down (or a ping goes unanswered) the feed is down and the
// caches serve nothing; a new connection brings it up again.
const (
	// changeChannel is the NOTIFY channel: database-wide, so stores in
	// different schemas of one database hear each other (harmless drops).
	changeChannel = "toolkit_agent_changes"
	// pgPingAfter is how long the LISTEN connection may stay silent before
	// a ping proves it alive; a ping unanswered as long brings it down.
	pgPingAfter = 5 * time.Second
	// sqlitePollEvery is how often agent_changes is read on SQLite.
	sqlitePollEvery = 50 * time.Millisecond
	// sqliteChangesKept is how long an agent_changes row is kept.
	sqliteChangesKept = time.Hour
	// feedRetry bounds the wait before the feed reconnects.
	feedRetry = 2 * time.Second
)

// changeFeed holds the subscribers and the state of the feed.
type changeFeed struct {
	mu        sync.Mutex
	listeners []*agents.ChangeListener
	up        bool
	stop      context.CancelFunc // nil until the listening goroutine starts
	done      chan struct{}
	closed    bool
}

// Subscribe implements agents.ChangeFeed.
func (s *Store) Subscribe(l agents.ChangeListener) (stop func()) {
	p := &l
	f := &s.feed
	f.mu.Lock()
	f.listeners = append(f.listeners, p)
	if f.up {
		l.FeedUp()
	}
	if f.stop == nil && !f.closed {
		ctx, cancel := context.WithCancel(context.Background())
		f.stop, f.done = cancel, make(chan struct{})
		go s.runFeed(ctx, f.done)
	}
	f.mu.Unlock()
	return func() {
		f.mu.Lock()
		defer f.mu.Unlock()
		f.listeners = slices.DeleteFunc(f.listeners, func(x *agents.ChangeListener) bool { return x == p })
	}
}

// changed tells this instance's listeners that the agent changed.
func (s *Store) changed(agentID string) {
	s.feed.mu.Lock()
	defer s.feed.mu.Unlock()
	for _, l := range s.feed.listeners {
		(*l).AgentChanged(agentID)
	}
}

// setFeed brings the feed up or down, telling every listener.
func (s *Store) setFeed(up bool) {
	s.feed.mu.Lock()
	defer s.feed.mu.Unlock()
	s.feed.up = up
	for _, l := range s.feed.listeners {
		if up {
			(*l).FeedUp()
		} else {
			(*l).FeedDown()
		}
	}
}

// closeFeed stops the listening goroutine and brings the feed down for good.
func (s *Store) closeFeed() {
	s.feed.mu.Lock()
	s.feed.closed = true
	stop, done := s.feed.stop, s.feed.done
	s.feed.mu.Unlock()
	if stop != nil {
		stop()
		<-done
	}
	s.setFeed(false)
}

// announce records, inside the transaction of a change, that the agent
// changed, for the other instances sharing the database.
func (s *Store) announce(ctx context.Context, tx bun.IDB, agentID string) error {
	if s.postgres {
		_, err := tx.ExecContext(ctx, "SELECT pg_notify(?, ?)", changeChannel, agentID)
		return err
	}
	now := time.Now().UTC()
	if _, err := tx.ExecContext(ctx, "DELETE FROM agent_changes WHERE changed_at < ?", now.Add(-sqliteChangesKept)); err != nil {
		return err
	}
	_, err := tx.ExecContext(ctx, "INSERT INTO agent_changes (agent_id, changed_at) VALUES (?, ?)", agentID, now)
	return err
}

// runFeed listens (Postgres) or polls (SQLite) until ctx ends. A panic
// leaves the feed down, which only turns the caches off.
func (s *Store) runFeed(ctx context.Context, done chan struct{}) {
	defer close(done)
	defer func() {
		if recover() != nil {
			s.setFeed(false)
		}
	}()
	for wait := 50 * time.Millisecond; ctx.Err() == nil; wait = min(2*wait, feedRetry) {
		var err error
		if s.postgres {
			err = s.listenPostgres(ctx)
		} else {
			err = s.pollSQLite(ctx)
		}
		s.setFeed(false)
		if err == nil { // it was up for a while: retry soon
			wait = 50 * time.Millisecond
		}
		select {
		case <-ctx.Done():
		case <-time.After(wait):
		}
	}
}

// listenPostgres holds one LISTEN connection, bringing the feed up while
// it answers. It returns nil when the connection failed after being up,
// the error when it never came up.
func (s *Store) listenPostgres(ctx context.Context) error {
	ln := pgdriver.NewListener(s.db)
	defer ln.Close()
	unblock := context.AfterFunc(ctx, func() { _ = ln.Close() }) // a receive waits on the connection, not on ctx
	defer unblock()
	if err := ln.Listen(ctx, changeChannel); err != nil {
		return err
	}
	s.setFeed(true)
	pinged := false
	for {
		_, payload, err := ln.ReceiveTimeout(ctx, pgPingAfter)
		var ne net.Error
		switch {
		case err == nil:
			pinged = false
			if payload != "" {
				s.changed(payload)
			}
		case errors.As(err, &ne) && ne.Timeout() && !pinged && ctx.Err() == nil:
			// Silence: a ping through the pool must come back in time.
			if err := pgdriver.Notify(ctx, s.db, changeChannel, ""); err != nil {
				return nil
			}
			pinged = true
		default:
			return nil
		}
	}
}

// pollSQLite reads agent_changes every sqlitePollEvery, bringing the feed
// up while the reads succeed. Rows written before it started are not
// announcements for it (nothing was cached then).
func (s *Store) pollSQLite(ctx context.Context) error {
	var last int64
	if err := s.db.NewRaw("SELECT COALESCE(MAX(seq), 0) FROM agent_changes").Scan(ctx, &last); err != nil {
		return err
	}
	s.setFeed(true)
	tick := time.NewTicker(sqlitePollEvery)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-tick.C:
		}
		var rows []struct {
			Seq     int64  `bun:"seq"`
			AgentID string `bun:"agent_id"`
		}
		if err := s.db.NewRaw("SELECT seq, agent_id FROM agent_changes WHERE seq > ? ORDER BY seq", last).Scan(ctx, &rows); err != nil {
			return nil
		}
		for _, r := range rows {
			s.changed(r.AgentID)
			last = r.Seq
		}
	}
}

// inChange runs fn in a transaction and announces the change of agentID
// (when fn leaves it set; it may set it from what it reads) inside it,
// then tells this instance's listeners whatever the outcome.
func (s *Store) inChange(ctx context.Context, agentID *string, fn func(ctx context.Context, tx bun.Tx) error) error {
	err := s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		if err := fn(ctx, tx); err != nil {
			return err
		}
		if *agentID == "" {
			return nil
		}
		if err := s.announce(ctx, tx, *agentID); err != nil {
			return fmt.Errorf("announcing the change of agent %s: %w", *agentID, err)
		}
		return nil
	})
	if *agentID != "" {
		s.changed(*agentID)
	}
	return err
}
