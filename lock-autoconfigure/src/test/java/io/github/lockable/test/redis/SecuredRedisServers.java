package io.github.lockable.test.redis;

import java.util.List;
import java.util.Map;

/**
 * Redis servers that refuse anonymous clients, for the least-privilege tests: one with
 * {@code requirepass}, one whose only user for the application has exactly the
 * permissions Lockable needs ({@link #aclRules(String)}), the default user switched off.
 * The harness's own connection logs in as an admin with every permission.
 */
public final class SecuredRedisServers {

	/** The application's user on the ACL server. */
	public static final RedisCredentials LOCKABLE_USER = new RedisCredentials("lockable", "lockable-test-secret");

	/** The password of the {@code requirepass} server; no user name, as most applications set it. */
	public static final RedisCredentials REQUIREPASS = new RedisCredentials(null, "requirepass-test-secret");

	private static final RedisCredentials ADMIN = new RedisCredentials("admin", "admin-test-secret");

	private SecuredRedisServers() {
	}

	/**
	 * The permissions Lockable needs with the given key prefix, as docs/operating.md gives them.
	 * @param prefix {@code lockable.key-prefix}
	 * @return the rules of an ACL {@code user} line, after its name, {@code on} and password
	 */
	public static String aclRules(String prefix) {
		return "resetkeys ~" + prefix + ":* ~lockable:fence:* resetchannels &{" + prefix + ":*}:released"
				+ " -@all +evalsha +eval +set +get +del +time +pttl +pexpire +spublish +exists +ssubscribe"
				+ " +sunsubscribe +command|info +info +scan";
	}

	/**
	 * Starts a server that asks every client for {@link #REQUIREPASS}'s password.
	 * @return the running server; the caller closes it
	 */
	public static RedisTestServer startWithPassword() {
		return RedisTestServer.process()
			.config("requirepass " + REQUIREPASS.password())
			.admin(REQUIREPASS)
			.start();
	}

	/**
	 * Starts a server whose default user is off and whose {@link #LOCKABLE_USER} has the
	 * {@link #aclRules(String) rules} for the prefix {@code lock}.
	 * @return the running server; the caller closes it
	 */
	public static RedisTestServer startWithAclUser() {
		return RedisTestServer.process()
			.config("user default off")
			.config("user " + ADMIN.username() + " on >" + ADMIN.password() + " ~* &* +@all")
			.config("user " + LOCKABLE_USER.username() + " on >" + LOCKABLE_USER.password() + " "
					+ forTheServer(aclRules("lock")))
			.admin(ADMIN)
			.start();
	}

	/**
	 * The rules as docs/operating.md says to adapt them to the server the harness starts: on one
	 * without sharded pub/sub (Redis 6.2, which refuses a rule naming SPUBLISH), the classic
	 * pub/sub commands instead.
	 * @param rules rules such as {@link #aclRules(String)}
	 * @return the rules this machine's server takes
	 */
	public static String forTheServer(String rules) {
		if (RedisTestServers.localServerMajorVersion() >= 7) {
			return rules;
		}
		return rules.replace("+spublish", "+publish")
			.replace("+ssubscribe", "+subscribe")
			.replace("+sunsubscribe", "+unsubscribe");
	}

	/**
	 * What the server refused since it started, one line each, from {@code ACL LOG}.
	 * Lettuce's {@code CLIENT SETINFO} (its name and version, sent on every connect) is
	 * left out: Lettuce carries on without it, and no rule of docs/operating.md allows it, as Redis
	 * 7.0 refuses a rule that names it. Redis 7.0 answers it as an unknown subcommand; 7.2
	 * and Valkey refuse it by ACL; 6.2 refuses it by ACL before it finds the subcommand
	 * unknown, and logs it as {@code client}.
	 * @param server a server from {@link #startWithAclUser()}
	 * @return the refusals, such as {@code lockable: command client|setinfo}
	 */
	public static List<String> aclDenials(RedisTestServer server) {
		return server.commands()
			.aclLog()
			.stream()
			.map(SecuredRedisServers::describe)
			.filter((denial) -> !denial.contains(" client|setinfo ") && !(denial.contains(" command client ")
					&& RedisTestServers.localServerMajorVersion() < 7))
			.toList();
	}

	private static String describe(Map<String, Object> entry) {
		return entry.get("username") + ": " + entry.get("reason") + " " + entry.get("object") + " (in "
				+ entry.get("context") + ")";
	}

}
