package io.github.lockable.store.file;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import io.github.lockable.store.AcquireResult;
import io.github.lockable.store.LockRequest;
import io.github.lockable.store.Stages;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A holder whose pid {@code /proc} does not show is dead only if {@code /proc} hides
 * nothing: under {@code hidepid=invisible} (systemd's {@code ProtectProc=invisible}) other
 * users' live processes are missing too. The store reads a fake {@code /proc} tree here,
 * in which the holder's pid is always missing.
 */
class FileLockStoreHiddenProcTests {

	private static final Duration TTL = Duration.ofSeconds(30);

	/** A pid the fake table never has. */
	private static final long HOLDER_PID = 4_000_001;

	@TempDir
	Path temp;

	private Path proc;

	private Path locks;

	@BeforeEach
	void fakeProc() throws IOException {
		ProcessIdentity me = ProcessIdentity.current();
		assumeTrue(me.bootId() != null && me.pidNamespace() != null, "needs Linux /proc to know this process");
		this.proc = Files.createDirectories(this.temp.resolve("proc"));
		this.locks = Files.createDirectory(this.temp.resolve("locks"));
		Files.createDirectories(this.proc.resolve("self"));
		Object uid = Files.getAttribute(this.proc, "unix:uid");
		Files.writeString(this.proc.resolve("self/status"),
				"Name:\tjava\nUid:\t" + uid + "\t" + uid + "\t" + uid + "\t" + uid + "\n");
		Files.createDirectories(this.proc.resolve(Long.toString(me.pid())));
		LockFileFixtures.write(this.locks, LockFileFixtures.metadata("job", new ProcessIdentity(me.host(), HOLDER_PID,
				me.bootId(), me.pidNamespace(), 12345L), Instant.now(), TTL));
	}

	@ParameterizedTest(name = "{0}: {1}")
	@CsvSource(delimiter = ';', value = { "rw,nosuid,nodev,noexec,relatime,hidepid=invisible; Held",
			"rw,hidepid=2,gid=1000; Held", "rw,hidepid=ptraceable; Held", "rw,nosuid,nodev,noexec,relatime; Acquired",
			"rw,hidepid=noaccess; Acquired", "rw,hidepid=0; Acquired" })
	void missingHolderIsDeadOnlyWhereProcHidesNothing(String superOptions, String answer) throws IOException {
		mountOptions(superOptions);
		assertThat(acquire().getClass().getSimpleName()).isEqualTo(answer);
	}

	@Test
	void missingHolderIsDeadUnderHidepidWhenAnotherUsersProcessShows() throws IOException {
		mountOptions("rw,hidepid=invisible,gid=4");
		Path other = Files.createDirectory(this.proc.resolve("1"));
		try {
			Files.setAttribute(other, "unix:uid", 65534);
		}
		catch (IOException ex) {
			assumeTrue(false, "only root can give a fake process to another user: " + ex);
		}
		assertThat(acquire()).isInstanceOf(AcquireResult.Acquired.class);
	}

	@Test
	void unknownMountCountsAsHiding() {
		assertThat(acquire()).isInstanceOf(AcquireResult.Held.class);
	}

	private AcquireResult acquire() {
		return Stages.join(new FileLockStore(this.locks, null, new FileStoreOptions(Clock.systemUTC(), true, FileStoreOptions.DEFAULT_GUARD_TIMEOUT, true, this.proc))
			.acquire(new LockRequest("job", TTL)));
	}

	private void mountOptions(String superOptions) throws IOException {
		Files.writeString(this.proc.resolve("self/mountinfo"),
				"1 0 8:1 / / rw,relatime shared:1 - ext4 /dev/sda1 rw\n" + "22 1 0:21 / " + this.proc
						+ " rw,nosuid,nodev,noexec,relatime shared:12 - proc proc " + superOptions + "\n");
	}

}
