package io.github.lockable.it;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.github.lockable.test.LocalHttp;
import io.github.lockable.test.app.Gate;
import io.github.lockable.test.app.LockableWebApplication;

import org.springframework.beans.factory.annotation.Autowired;

/**
 * What every test of {@link LockableWebApplication} over HTTP starts from: the client for
 * the application's port, and its {@link Gate}, opened after each test so that no handler
 * a test left waiting holds its lock into the next one. A subclass names the application,
 * its properties and its Redis.
 */
abstract class GatedHttpTests {

	@RegisterExtension
	final LocalHttp http = new LocalHttp();

	@Autowired
	Gate gate;

	@AfterEach
	void openGate() {
		this.gate.reset();
	}

}
