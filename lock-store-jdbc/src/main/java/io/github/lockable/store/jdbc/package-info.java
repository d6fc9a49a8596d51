/**
 * The JDBC lock store: locks as rows of one table in the application's own database.
 * <p>
 * The store class is public so that an application can construct or replace its store;
 * every other type here is internal: it may change in any release.
 */
@NullMarked
package io.github.lockable.store.jdbc;

import org.jspecify.annotations.NullMarked;
