// Provider groups to console roles: console-wide from the unqualified entries, and in each
// connection the map names from its entries and the unqualified ones, the map's order deciding.
import { describe, expect, it } from 'vitest';
import type { RoleMap } from '../config/config';
import { rolesForGroups } from './oidc-role-map';

// admin=privacy-admins;admin@uat=uat-admins;support@production,uat=helpdesk
const MAP: RoleMap = [
  { role: 'admin', groups: ['privacy-admins'] },
  { role: 'admin', groups: ['uat-admins'], connections: ['uat'] },
  { role: 'support', groups: ['helpdesk'], connections: ['production', 'uat'] },
];

describe('rolesForGroups', () => {
  it('gives a group mapped in named connections a role there only, and none console-wide', () => {
    expect(rolesForGroups(MAP, ['uat-admins'])).toEqual({ connectionRoles: { uat: 'admin' } });
    expect(rolesForGroups(MAP, ['helpdesk'])).toEqual({
      connectionRoles: { production: 'support', uat: 'support' },
    });
  });

  it('lets the map’s order decide connection by connection for a person in several groups', () => {
    expect(rolesForGroups(MAP, ['helpdesk', 'uat-admins'])).toEqual({
      connectionRoles: { production: 'support', uat: 'admin' },
    });
    // An unqualified entry applies in every connection, in its place in the map.
    expect(rolesForGroups(MAP, ['privacy-admins', 'helpdesk'])).toEqual({
      role: 'admin',
      connectionRoles: { production: 'admin', uat: 'admin' },
    });
  });

  it('gives nothing to a person in no mapped group', () => {
    expect(rolesForGroups(MAP, ['everyone'])).toEqual({ connectionRoles: {} });
  });
});
