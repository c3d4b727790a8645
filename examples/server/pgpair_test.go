//go:build cluster

package main

import (
	"context"
	"database/sql"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"github.com/uptrace/bun/driver/pgdriver"
)

// pgPair is a PostgreSQL primary and a streaming standby on loopback
// ports, started by the test from the installed binaries: the standby is
// the primary's synchronous standby (synchronous_standby_names, with
// synchronous_commit on), so a commit is acknowledged only once the
// standby has flushed it.
type pgPair struct {
	t       *testing.T
	bin     string // the PostgreSQL binaries
	dir     string
	primary pgNode
	standby pgNode
}

// pgNode is one server of the pair.
type pgNode struct {
	name string
	data string
	port int
}

// pgBinDir finds the PostgreSQL server binaries (TOOLKIT_PG_BIN, or the
// newest under /usr/lib/postgresql). Without them the test is skipped,
// unless TOOLKIT_REQUIRE_CLUSTER=1 (CI) makes that a failure.
func pgBinDir(t *testing.T) string {
	if dir := os.Getenv("TOOLKIT_PG_BIN"); dir != "" {
		return dir
	}
	matches, _ := filepath.Glob("/usr/lib/postgresql/*/bin/initdb")
	if len(matches) == 0 {
		requireOrSkip(t, "no PostgreSQL server binaries (initdb) under /usr/lib/postgresql; set TOOLKIT_PG_BIN")
	}
	return filepath.Dir(matches[len(matches)-1])
}

// requireOrSkip skips the test, or fails it when TOOLKIT_REQUIRE_CLUSTER=1.
func requireOrSkip(t *testing.T, why string) {
	t.Helper()
	if os.Getenv("TOOLKIT_REQUIRE_CLUSTER") == "1" {
		t.Fatal(why)
	}
	t.Skip(why)
}

// freePort returns a loopback port nothing listens on.
func freePort(t *testing.T) int {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// startPGPair initialises the primary, clones the standby from it with
// pg_basebackup, starts both and waits until the standby is synchronous.
// Both are stopped and their files removed when the test ends.
func startPGPair(t *testing.T) *pgPair {
	p := &pgPair{t: t, bin: pgBinDir(t)}
	dir, err := os.MkdirTemp("", "toolkit-pgpair-")
	require.NoError(t, err)
	p.dir = dir
	t.Cleanup(func() { os.RemoveAll(dir) })
	p.chownToPostgres(dir)
	p.primary = pgNode{name: "primary", data: filepath.Join(dir, "primary"), port: freePort(t)}
	p.standby = pgNode{name: "standby1", data: filepath.Join(dir, "standby"), port: freePort(t)}

	p.run("initdb", "-D", p.primary.data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync")
	// fsync stays on: the test kills servers, not the machine, but the
	// acknowledgement path is then the one a production primary takes.
	p.appendConf(p.primary, fmt.Sprintf(`
listen_addresses = '127.0.0.1'
port = %d
unix_socket_directories = '%s'
wal_level = replica
max_wal_senders = 4
synchronous_standby_names = 'FIRST 1 (standby1)'
synchronous_commit = on
shared_buffers = 32MB
max_connections = 100
`, p.primary.port, dir))
	p.start(p.primary)
	t.Cleanup(func() { p.stop(p.primary) })
	p.run("pg_basebackup", "-h", "127.0.0.1", "-p", strconv.Itoa(p.primary.port), "-U", "postgres",
		"-D", p.standby.data, "-X", "stream", "--no-sync")
	// The standby names itself standby1 to the primary; it has no
	// synchronous standby of its own, so once promoted its commits do not
	// wait for one that does not exist.
	p.appendConf(p.standby, fmt.Sprintf(`
port = %d
hot_standby = on
synchronous_standby_names = ''
primary_conninfo = 'host=127.0.0.1 port=%d user=postgres application_name=standby1'
`, p.standby.port, p.primary.port))
	p.writeFile(filepath.Join(p.standby.data, "standby.signal"), "")
	p.start(p.standby)
	t.Cleanup(func() { p.stop(p.standby) })
	p.waitSynchronous()
	db := p.open(p.primary, "postgres")
	defer db.Close()
	_, err = db.Exec("CREATE DATABASE toolkit")
	require.NoError(t, err)
	return p
}

// asPostgres runs a PostgreSQL binary as the postgres user when the test
// runs as root (initdb refuses root), else as the current user.
func (p *pgPair) command(name string, args ...string) *exec.Cmd {
	path := filepath.Join(p.bin, name)
	if os.Geteuid() == 0 {
		return exec.Command("runuser", append([]string{"-u", "postgres", "--", path}, args...)...)
	}
	return exec.Command(path, args...)
}

// run runs a PostgreSQL binary and fails the test with its output.
func (p *pgPair) run(name string, args ...string) {
	p.t.Helper()
	out, err := p.command(name, args...).CombinedOutput()
	require.NoError(p.t, err, "%s %s: %s", name, strings.Join(args, " "), out)
}

// chownToPostgres gives dir to the postgres user when running as root.
func (p *pgPair) chownToPostgres(path string) {
	if os.Geteuid() != 0 {
		return
	}
	u, err := user.Lookup("postgres")
	if err != nil {
		requireOrSkip(p.t, "running as root without a postgres user to run PostgreSQL as")
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	require.NoError(p.t, os.Chown(path, uid, gid))
}

func (p *pgPair) appendConf(n pgNode, text string) {
	f, err := os.OpenFile(filepath.Join(n.data, "postgresql.conf"), os.O_APPEND|os.O_WRONLY, 0)
	require.NoError(p.t, err)
	defer f.Close()
	_, err = f.WriteString(text)
	require.NoError(p.t, err)
}

func (p *pgPair) writeFile(path, text string) {
	require.NoError(p.t, os.WriteFile(path, []byte(text), 0o600))
	p.chownToPostgres(path)
}

func (p *pgPair) start(n pgNode) {
	p.run("pg_ctl", "-D", n.data, "-l", filepath.Join(p.dir, n.name+".log"), "-w", "-t", "60", "start")
}

// stop stops a server at once (a no-op when it is not running).
func (p *pgPair) stop(n pgNode) {
	_ = p.command("pg_ctl", "-D", n.data, "-m", "immediate", "stop").Run()
}

// killPrimary ends the primary the way a crash does: an immediate
// shutdown, whose backends exit without finishing anything.
func (p *pgPair) killPrimary() {
	p.run("pg_ctl", "-D", p.primary.data, "-m", "immediate", "stop")
}

// promote makes the standby a primary and waits until it accepts writes.
func (p *pgPair) promote() {
	p.run("pg_ctl", "-D", p.standby.data, "-w", "-t", "60", "promote")
}

// url is a server URL of the toolkit database on the given nodes, in
// that order, with target_session_attrs=read-write.
func (p *pgPair) url(nodes ...pgNode) string {
	hosts := make([]string, len(nodes))
	for i, n := range nodes {
		hosts[i] = fmt.Sprintf("127.0.0.1:%d", n.port)
	}
	return "postgres://postgres@" + strings.Join(hosts, ",") +
		"/toolkit?sslmode=disable&target_session_attrs=read-write&connect_timeout=2s"
}

// open connects to one node for the checks.
func (p *pgPair) open(n pgNode, database string) *sql.DB {
	dsn := fmt.Sprintf("postgres://postgres@127.0.0.1:%d/%s?sslmode=disable&application_name=toolkit-checker", n.port, database)
	return sql.OpenDB(pgdriver.NewConnector(pgdriver.WithDSN(dsn)))
}

// waitSynchronous waits until the primary reports the standby as its
// synchronous standby.
func (p *pgPair) waitSynchronous() {
	db := p.open(p.primary, "postgres")
	defer db.Close()
	deadline := time.Now().Add(60 * time.Second)
	for {
		var state string
		err := db.QueryRowContext(context.Background(),
			`SELECT sync_state FROM pg_stat_replication WHERE application_name = 'standby1'`).Scan(&state)
		if err == nil && state == "sync" {
			return
		}
		require.True(p.t, time.Now().Before(deadline), "the standby never became synchronous (last: %q, %v)", state, err)
		time.Sleep(100 * time.Millisecond)
	}
}
