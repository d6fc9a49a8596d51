package io.github.lockable.store.file;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.github.lockable.store.AcquireResult;
import io.github.lockable.store.LockHandle;
import io.github.lockable.store.LockHolder;
import io.github.lockable.store.LockListing;
import io.github.lockable.store.LockRequest;
import io.github.lockable.store.LockStoreException;
import io.github.lockable.store.ReleaseResult;
import io.github.lockable.store.StoredLock;
import io.github.lockable.test.Stages;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * What is particular to listing and force-releasing lock files: the holder in the file,
 * files of other versions and other processes, and the files a listing must pass over.
 */
class FileLockStoreListingTests {

	private static final Duration TTL = Duration.ofSeconds(30);

	private static final LockHolder HOLDER = new LockHolder("reports@build-01", ProcessHandle.current().pid(),
			"DailyReport.run()");

	@TempDir
	Path temp;

	private Path directory() {
		return this.temp.resolve("locks");
	}

	private LockHandle acquired(FileLockStore store, String key, LockHolder holder) {
		AcquireResult result = Stages.join(store.acquire(new LockRequest(key, TTL, false, holder)));
		assertThat(result).isInstanceOf(AcquireResult.Acquired.class);
		return ((AcquireResult.Acquired) result).handle();
	}

	private static List<String> keys(LockListing listing) {
		return listing.locks().stream().map(StoredLock::key).toList();
	}

	@Test
	void lockFileKeepsTheRequestsHolderAndAFileWithoutHolderKeepsTheOldFields() {
		FileLockStore store = new FileLockStore(directory());
		acquired(store, "lock:named", HOLDER);
		acquired(store, "lock:anonymous", null);
		JsonNode named = LockFileFixtures.json(directory(), "lock:named");
		assertThat(named.get("instance").asText()).isEqualTo("reports@build-01");
		assertThat(named.get("method").asText()).isEqualTo("DailyReport.run()");
		assertThat(named.get("pid").asLong()).isEqualTo(ProcessHandle.current().pid());
		JsonNode anonymous = LockFileFixtures.json(directory(), "lock:anonymous");
		assertThat(anonymous.has("instance")).isFalse();
		assertThat(anonymous.has("method")).isFalse();
	}

	@Test
	void lockOfAnotherProcessAndOfAnOlderVersionIsListedWithoutHolder() {
		LockMetadata old = LockFileFixtures.metadata("lock:old", LockFileFixtures.elsewhere(), Instant.now(), TTL);
		LockFileFixtures.write(directory(), old);
		FileLockStore other = new FileLockStore(directory());
		acquired(other, "lock:other", HOLDER);
		LockListing listing = Stages.join(new FileLockStore(directory()).locks("lock:", 10));
		assertThat(keys(listing)).containsExactly("lock:old", "lock:other");
		StoredLock listedOld = listing.locks().get(0);
		assertThat(listedOld.holder()).isNull();
		assertThat(listedOld.acquiredAt()).isEqualTo(old.startedAt());
		assertThat(listing.locks().get(1).holder()).isEqualTo(HOLDER);
	}

	@Test
	void listingPassesOverStaleDeadMalformedTemporaryAndOtherFiles() throws IOException {
		FileLockStore store = new FileLockStore(directory());
		LockHandle live = acquired(store, "lock:live", HOLDER);
		LockFileFixtures.write(directory(), LockFileFixtures.expired("lock:expired"));
		ProcessIdentity me = ProcessIdentity.current();
		assumeTrue(me.startTicks() != null && me.bootId() != null && me.pidNamespace() != null, "needs Linux /proc");
		ProcessIdentity dead = new ProcessIdentity(me.host(), me.pid(), me.bootId(), me.pidNamespace(), me.startTicks() + 1);
		LockFileFixtures.write(directory(), LockFileFixtures.metadata("lock:dead", dead, Instant.now(), TTL));
		LockFileFixtures.write(directory(), "lock:malformed", "{\"job\": \"lock:malformed\"");
		Path lockFile = LockFileFixtures.lockFile(directory(), "lock:live");
		Files.copy(lockFile, LockDirectory.tempFile(lockFile));
		Files.copy(lockFile, directory().resolve("lock%3Acopy.txt"));
		LockListing listing = Stages.join(store.locks("lock:", 10));
		assertThat(keys(listing)).containsExactly("lock:live");
		assertThat(listing.truncated()).isFalse();
		assertThat(new FileLockStore(directory(), null, TTL, java.time.Clock.systemUTC(), false).locks("lock:", 10))
			.succeedsWithin(Duration.ofSeconds(5))
			.satisfies((all) -> assertThat(keys(all)).containsExactly("lock:dead", "lock:live"));
		Stages.join(live.release());
	}

	@Test
	void longKeysWithHashedNamesAreListedByTheirPrefix() {
		FileLockStore store = new FileLockStore(directory());
		String longer = "lock:" + "x".repeat(150);
		acquired(store, longer + ":a", HOLDER);
		acquired(store, longer + ":b", HOLDER);
		acquired(store, "lock:" + "y".repeat(150), HOLDER);
		assertThat(keys(Stages.join(store.locks(longer + ":a", 10)))).containsExactly(longer + ":a");
		assertThat(keys(Stages.join(store.locks(longer, 10)))).containsExactly(longer + ":a", longer + ":b");
		assertThat(keys(Stages.join(store.locks("lock:x", 10)))).containsExactly(longer + ":a", longer + ":b");
		assertThat(Stages.join(store.locks("lock:", 10)).locks()).hasSize(3);
		String pair = "lock:\uD83D\uDD12";
		acquired(store, pair, HOLDER);
		assertThat(keys(Stages.join(store.locks("lock:\uD83D", 10)))).as("a prefix ending in half of a pair")
			.containsExactly(pair);
	}

	@Test
	void listingOfADirectoryThatCannotBeReadFailsTheStage() throws IOException {
		Path file = Files.writeString(this.temp.resolve("regular"), "not a directory");
		FileLockStore store = new FileLockStore(file);
		assertThatExceptionOfType(LockStoreException.class).isThrownBy(() -> Stages.join(store.locks("lock:", 10)))
			.satisfies((ex) -> assertThat(ex.getCode()).isEqualTo("ENOTDIR"))
			.withMessageContaining("list the locks under 'lock:'");
		assertThatExceptionOfType(LockStoreException.class)
			.isThrownBy(() -> Stages.join(store.forceRelease("lock:any")))
			.satisfies((ex) -> assertThat(ex.getCode()).isEqualTo("ENOTDIR"));
	}

	@Test
	void forceReleaseDeletesAStaleLockFileButFindsNothingHeld() {
		FileLockStore store = new FileLockStore(directory());
		LockFileFixtures.write(directory(), LockFileFixtures.expired("lock:stale"));
		assertThat(Stages.join(store.forceRelease("lock:stale"))).isFalse();
		assertThat(LockFileFixtures.lockFile(directory(), "lock:stale")).doesNotExist();
	}

	@Test
	void forceReleaseOfAnotherProcesssLockFreesItForEveryStoreOfTheDirectory() {
		LockFileFixtures.write(directory(),
				LockFileFixtures.metadata("lock:elsewhere", LockFileFixtures.elsewhere(), Instant.now(), TTL));
		FileLockStore store = new FileLockStore(directory());
		assertThat(Stages.join(store.acquire(new LockRequest("lock:elsewhere", TTL))))
			.isInstanceOf(AcquireResult.Held.class);
		assertThat(Stages.join(store.forceRelease("lock:elsewhere"))).isTrue();
		LockHandle next = acquired(new FileLockStore(directory()), "lock:elsewhere", HOLDER);
		assertThat(next.lease().fencingToken()).isGreaterThan(1);
		assertThat(Stages.join(next.release())).isEqualTo(ReleaseResult.RELEASED);
	}

}
