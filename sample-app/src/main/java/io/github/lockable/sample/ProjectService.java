package io.github.lockable.sample;

import java.time.Instant;
import java.util.UUID;

import org.springframework.http.HttpStatus;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.web.server.ResponseStatusException;

/**
 * Changes projects in a transaction. The controller's lock is taken before this
 * transaction begins and released after it commits.
 */
@Service
class ProjectService {

	private final ProjectRepository projects;

	private final SimulatedWork work;

	private final JdbcClient jdbc;

	ProjectService(ProjectRepository projects, SimulatedWork work, JdbcClient jdbc) {
		this.projects = projects;
		this.work = work;
		this.jdbc = jdbc;
	}

	@Transactional
	Project create(String name) {
		return this.projects.save(new Project(null, name, false, null, null));
	}

	@Transactional
	Project archive(UUID projectId) {
		Project project = this.projects.findById(projectId)
			.orElseThrow(() -> new ResponseStatusException(HttpStatus.NOT_FOUND, "No such project"));
		if (project.archived()) {
			return project;
		}
		this.work.perform();
		return this.projects.save(project.archive(Instant.now()));
	}

	/**
	 * Renames a project with the fencing token of the caller's lock. The row keeps the token
	 * of its last writer and takes only a greater one: a holder whose lock ran out while it
	 * worked (a long GC pause, a slow disk) and whose successor has written already is
	 * refused, instead of overwriting the newer write.
	 * @param projectId the project
	 * @param name the new name
	 * @param fencingToken the token of the lock the caller holds on the project
	 */
	@Transactional
	void rename(UUID projectId, String name, long fencingToken) {
		int updated = this.jdbc.sql("update project set name = :name, fence = :token where id = :id and fence < :token")
			.param("name", name)
			.param("token", fencingToken)
			.param("id", projectId)
			.update();
		if (updated == 0) {
			if (this.projects.existsById(projectId)) {
				throw new ResponseStatusException(HttpStatus.CONFLICT,
						"A later holder of this project's lock has changed it; this change was refused");
			}
			throw new ResponseStatusException(HttpStatus.NOT_FOUND, "No such project");
		}
	}

}
