package io.github.lockable.store.file;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.github.lockable.store.LockStoreHealth.Status;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

class LockDirectoryStatusTests {

	@TempDir
	Path temp;

	@Test
	void anOwnerOnlyDirectoryIsUsable() throws Exception {
		Path directory = Files.createDirectory(this.temp.resolve("locks"),
				PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
		Status status = new FileLockStore(directory).checkHealth();
		assertThat(status.usable()).isTrue();
		assertThat(status.details()).containsExactly(entry("directory", directory.toString()),
				entry("owner", System.getProperty("user.name")), entry("mode", "rwx------"));
	}

	@Test
	void aMissingDirectoryIsNot() {
		Status status = DirectorySafety.status(this.temp.resolve("missing"));
		assertThat(status.usable()).isFalse();
		assertThat(status.details()).containsEntry("reason", "it does not exist").doesNotContainKey("owner");
	}

	@Test
	void aMissingDirectoryIsCreatedByTheCheckAsTheFirstLockWouldCreateIt() {
		Path directory = this.temp.resolve("new").resolve("locks");
		Status status = new FileLockStore(directory).checkHealth();
		assertThat(status.usable()).isTrue();
		assertThat(status.details()).containsEntry("mode", "rwx------").doesNotContainKey("reason");
		assertThat(directory).isDirectory();
	}

	@Test
	void aDirectoryACleanerDeletedIsCreatedAgain() throws Exception {
		Path directory = this.temp.resolve("cleaned");
		FileLockStore store = new FileLockStore(directory);
		assertThat(store.checkHealth().usable()).isTrue();
		Files.delete(directory);
		assertThat(store.checkHealth().usable()).isTrue();
		assertThat(directory).isDirectory();
	}

	@Test
	void aDirectoryThatCannotBeCreatedIsNot() throws Exception {
		Path file = Files.createFile(this.temp.resolve("file"));
		Status status = new FileLockStore(file.resolve("locks")).checkHealth();
		assertThat(status.usable()).isFalse();
		assertThat(status.details()).containsKey("reason");
	}

	@Test
	void aFileIsNot() throws Exception {
		Path file = Files.createFile(this.temp.resolve("file"));
		assertThat(DirectorySafety.status(file).details()).containsEntry("reason", "it is not a directory");
	}

	@Test
	void aDirectoryOthersCanWriteIsNot() throws Exception {
		Path directory = Files.createDirectory(this.temp.resolve("open"));
		Files.setPosixFilePermissions(directory, PosixFilePermissions.fromString("rwxrwxrwx"));
		Status status = DirectorySafety.status(directory);
		assertThat(status.details()).containsEntry("mode", "rwxrwxrwx");
		assertThat(status.details().get("reason")).asString().contains("writable by its group or by others");
	}

	@Test
	void aDirectoryThisProcessCannotWriteIsNot() throws Exception {
		Path directory = Files.createDirectory(this.temp.resolve("read-only"));
		Files.setPosixFilePermissions(directory, PosixFilePermissions.fromString("r-x------"));
		assertThat(DirectorySafety.status(directory).details().get("reason"))
			.isEqualTo(Files.isWritable(directory) ? null : "it is not writable by this process");
	}

}
