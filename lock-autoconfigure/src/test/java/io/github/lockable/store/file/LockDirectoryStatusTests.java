package io.github.lockable.store.file;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

class LockDirectoryStatusTests {

	@TempDir
	Path temp;

	@Test
	void anOwnerOnlyDirectoryIsUsable() throws Exception {
		Path directory = Files.createDirectory(this.temp.resolve("locks"),
				PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
		LockDirectoryStatus status = new FileLockStore(directory).checkDirectory();
		assertThat(status.isUsable()).isTrue();
		assertThat(status.directory()).isEqualTo(directory);
		assertThat(status.owner()).isEqualTo(System.getProperty("user.name"));
		assertThat(status.mode()).isEqualTo("rwx------");
	}

	@Test
	void aMissingDirectoryIsNot() {
		LockDirectoryStatus status = DirectorySafety.status(this.temp.resolve("missing"));
		assertThat(status.problem()).isEqualTo("it does not exist");
		assertThat(status.owner()).isNull();
	}

	@Test
	void aFileIsNot() throws Exception {
		Path file = Files.createFile(this.temp.resolve("file"));
		assertThat(DirectorySafety.status(file).problem()).isEqualTo("it is not a directory");
	}

	@Test
	void aDirectoryOthersCanWriteIsNot() throws Exception {
		Path directory = Files.createDirectory(this.temp.resolve("open"));
		Files.setPosixFilePermissions(directory, PosixFilePermissions.fromString("rwxrwxrwx"));
		LockDirectoryStatus status = DirectorySafety.status(directory);
		assertThat(status.mode()).isEqualTo("rwxrwxrwx");
		assertThat(status.problem()).contains("writable by its group or by others");
	}

	@Test
	void aDirectoryThisProcessCannotWriteIsNot() throws Exception {
		Path directory = Files.createDirectory(this.temp.resolve("read-only"));
		Files.setPosixFilePermissions(directory, PosixFilePermissions.fromString("r-x------"));
		assertThat(DirectorySafety.status(directory).problem()).isEqualTo(
				Files.isWritable(directory) ? null : "it is not writable by this process");
	}

}
