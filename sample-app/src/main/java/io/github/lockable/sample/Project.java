package io.github.lockable.sample;

import java.time.Instant;
import java.util.UUID;

import org.springframework.data.annotation.Id;
import org.springframework.data.annotation.Version;
import org.springframework.data.relational.core.mapping.Table;

/**
 * A project, stored in the embedded database.
 */
@Table("PROJECT")
record Project(@Id UUID id, String name, boolean archived, Instant archivedAt, @Version Long version) {

	Project archive(Instant now) {
		return new Project(this.id, this.name, true, now, this.version);
	}

}
