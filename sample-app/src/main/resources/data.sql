merge into project (id, name, archived, version) key (id)
    values ('7f5c2b4e-3d1a-4c8e-9a6b-1e2f3a4b5c6d', 'Demo project', false, 0);
