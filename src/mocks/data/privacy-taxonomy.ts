// The vocabulary the mock's event types are built from: modules of a privacy-management platform,
// their object types and what can happen to each, kept apart from the generator so it reads as data.

/** One object type of a module and the actions recorded for it, in the order they are listed. */
export interface TaxonomyObjectType {
  /** Object type name; never contains a comma, so a comma-separated filter stays unambiguous. */
  readonly name: string;
  /** Appended to the object type name to form the event name ("Assessment" + "Submitted"). */
  readonly actions: readonly string[];
}

/** One module (product area) and its object types. */
export interface TaxonomyModule {
  /** Module name; never contains a comma, for the same reason as object type names. */
  readonly name: string;
  readonly objectTypes: readonly TaxonomyObjectType[];
}

/**
 * The modules, in the order the generator deals from them. A few actions carry a comma or double
 * quotes on purpose: real event names do, and the console's CSV export must quote them.
 */
export const PRIVACY_TAXONOMY: readonly TaxonomyModule[] = [
  {
    name: 'Consent & Preferences',
    objectTypes: [
      {
        name: 'Purpose',
        actions: [
          'Created',
          'Published',
          'Version Added',
          '"Marketing" Withdrawn, Bulk',
          'Retired',
          'Translation Updated',
          'Lawful Basis Changed',
          'Deleted',
        ],
      },
      {
        name: 'Collection Point',
        actions: [
          'Created',
          'Published',
          'Token Regenerated',
          'Purpose Linked',
          'Purpose Unlinked',
          'Double Opt-In Enabled',
          'Archived',
        ],
      },
      {
        name: 'Consent Receipt',
        actions: [
          'Received',
          'Rejected',
          'Bulk Import Started',
          'Bulk Import Completed',
          'Replayed',
        ],
      },
      {
        name: 'Preference Center',
        actions: ['Created', 'Published', 'Theme Changed', 'Language Added', 'Unpublished'],
      },
      {
        name: 'Data Subject Profile',
        actions: [
          'Created',
          'Merged',
          'Identifier Changed',
          'Consent Given',
          'Consent Withdrawn',
          'Consent Expired',
          'Link Token Issued',
          'Deleted',
        ],
      },
    ],
  },
  {
    name: 'Cookie Consent',
    objectTypes: [
      {
        name: 'Cookie Banner',
        actions: [
          'Published',
          'Layout Changed',
          'Text Updated',
          'Dismissed, No Choice Recorded',
          'Consent Model Changed',
          'Unpublished',
        ],
      },
      {
        name: 'Domain',
        actions: ['Added', 'Verified', 'Script Published', 'Script Unpublished', 'Removed'],
      },
      {
        name: 'Cookie Category',
        actions: ['Created', 'Renamed', 'Default Status Changed', 'Cookie Reassigned', 'Deleted'],
      },
      {
        name: 'Website Scan',
        actions: ['Scheduled', 'Started', 'Completed', 'Failed', 'New Cookies Found'],
      },
      {
        name: 'Geolocation Rule',
        actions: ['Created', 'Region Added', 'Region Removed', 'Priority Changed', 'Deleted'],
      },
    ],
  },
  {
    name: 'Data Mapping',
    objectTypes: [
      {
        name: 'Processing Activity',
        actions: [
          'Created',
          'Updated',
          'Owner Changed',
          'Legal Basis Changed',
          'Linked to Asset',
          'Approved',
          'Archived',
          'Deleted',
        ],
      },
      {
        name: 'Asset',
        actions: [
          'Created',
          'Updated',
          'Hosting Location Changed',
          'Risk Level Changed',
          'Decommissioned',
        ],
      },
      {
        name: 'Data Element',
        actions: ['Created', 'Classified', 'Sensitivity Changed', 'Merged', 'Deleted'],
      },
      {
        name: 'Data Flow',
        actions: ['Created', 'Transfer Mechanism Changed', 'Cross-Border Flag Set', 'Removed'],
      },
      {
        name: 'Inventory Attribute',
        actions: ['Created', 'Options Changed', 'Made Required', 'Deleted'],
      },
    ],
  },
  {
    name: 'Assessments',
    objectTypes: [
      {
        name: 'Assessment',
        actions: [
          'Created',
          'Launched',
          'Submitted',
          'Approved',
          'Rejected',
          'Reopened',
          'Respondent Reassigned',
          'Due Date Changed',
          'Archived',
          'Deleted',
        ],
      },
      {
        name: 'Assessment Template',
        actions: ['Created', 'Published', 'Version Created', 'Question Added', 'Retired'],
      },
      {
        name: 'Risk',
        actions: [
          'Identified',
          'Score Changed',
          'Owner Assigned',
          'Treatment Planned',
          'Accepted',
          'Closed',
        ],
      },
      {
        name: 'Question Response',
        actions: ['Answered', 'Changed', 'Justification Added', 'Flagged for Review'],
      },
    ],
  },
  {
    name: 'Data Subject Requests',
    objectTypes: [
      {
        name: 'Request',
        actions: [
          'Submitted',
          'Verified',
          'Assigned',
          'Extended',
          'Data Collected',
          'Response Sent',
          'Completed',
          'Rejected',
          'Reopened',
        ],
      },
      {
        name: 'Request Workflow',
        actions: ['Created', 'Stage Added', 'Published', 'Deadline Rule Changed', 'Retired'],
      },
      {
        name: 'Identity Verification',
        actions: ['Requested', 'Passed', 'Failed', 'Expired'],
      },
      {
        name: 'Request Portal',
        actions: ['Created', 'Published', 'Form Field Added', 'Language Added', 'Unpublished'],
      },
    ],
  },
  {
    name: 'Vendor Risk',
    objectTypes: [
      {
        name: 'Vendor',
        actions: [
          'Created',
          'Onboarded',
          'Risk Score Changed',
          'Tier Changed',
          'Contact Updated',
          'Offboarded',
          'Deleted',
        ],
      },
      {
        name: 'Vendor Contract',
        actions: [
          'Uploaded',
          'Signed',
          'Renewed, Terms Changed',
          'Expiring Soon',
          'Expired',
          'Terminated',
        ],
      },
      {
        name: 'Vendor Assessment',
        actions: ['Sent', 'Reminder Sent', 'Returned', 'Reviewed', 'Closed'],
      },
      {
        name: 'Vendor Engagement',
        actions: ['Created', 'Data Categories Changed', 'Sub-Processor Added', 'Ended'],
      },
    ],
  },
  {
    name: 'Incident Management',
    objectTypes: [
      {
        name: 'Incident',
        actions: [
          'Reported',
          'Triaged',
          'Severity Changed',
          'Escalated',
          'Contained',
          'Resolved',
          'Closed',
          'Reopened',
        ],
      },
      {
        name: 'Breach Notification',
        actions: [
          'Drafted',
          'Approved',
          'Sent to Regulator',
          'Sent to Individuals',
          'Deadline Missed',
        ],
      },
      {
        name: 'Incident Task',
        actions: ['Created', 'Assigned', 'Completed', 'Overdue'],
      },
    ],
  },
  {
    name: 'Policy & Notice',
    objectTypes: [
      {
        name: 'Privacy Notice',
        actions: [
          'Drafted',
          'Published',
          'Translated',
          '"Do Not Sell or Share" Link Updated',
          'Unpublished',
        ],
      },
      {
        name: 'Policy',
        actions: ['Created', 'Submitted for Approval', 'Approved', 'Review Due', 'Retired'],
      },
      {
        name: 'Notice Version',
        actions: ['Created', 'Compared', 'Rolled Back'],
      },
      {
        name: 'Attestation',
        actions: ['Requested', 'Acknowledged', 'Overdue', 'Waived'],
      },
    ],
  },
  {
    name: 'Data Discovery',
    objectTypes: [
      {
        name: 'Scan Job',
        actions: ['Scheduled', 'Started', 'Paused', 'Completed', 'Failed', 'Cancelled'],
      },
      {
        name: 'Data Source',
        actions: ['Connected', 'Credentials Rotated', 'Sampling Changed', 'Disconnected'],
      },
      {
        name: 'Classification',
        actions: ['Created', 'Pattern Changed', 'Confidence Threshold Changed', 'Disabled'],
      },
      {
        name: 'Discovery Result',
        actions: ['Confirmed', 'Dismissed', 'Sensitive Data Found', 'Remediated'],
      },
    ],
  },
  {
    name: 'Users & Access',
    objectTypes: [
      {
        name: 'User',
        actions: [
          'Invited',
          'Activated',
          'Signed In',
          'Sign-In Failed',
          'Password Reset',
          'MFA Enrolled',
          'Locked Out',
          'Deactivated',
        ],
      },
      {
        name: 'Role',
        actions: ['Created', 'Permission Granted', 'Permission Revoked', 'Deleted'],
      },
      {
        name: 'User Group',
        actions: ['Created', 'Member Added', 'Member Removed', 'Deleted'],
      },
      {
        name: 'API Credential',
        actions: ['Created', 'Scope Changed', 'Secret Rotated', 'Revoked'],
      },
      {
        name: 'SSO Configuration',
        actions: ['Enabled', 'Certificate Rotated', 'Attribute Mapping Changed', 'Disabled'],
      },
    ],
  },
  {
    name: 'Integrations',
    objectTypes: [
      {
        name: 'Webhook',
        actions: ['Created', 'Delivered', 'Delivery Failed', 'Secret Rotated', 'Disabled'],
      },
      {
        name: 'Connector',
        actions: [
          'Installed',
          'Authorized',
          'Sync Started',
          'Sync Completed',
          'Sync Failed',
          'Removed',
        ],
      },
      {
        name: 'Integration Workflow',
        actions: ['Created', 'Activated', 'Run Started', 'Run Failed', 'Deactivated'],
      },
      {
        name: 'SCIM Provisioning',
        actions: ['Enabled', 'User Provisioned', 'User Deprovisioned', 'Disabled'],
      },
    ],
  },
  {
    name: 'Audit & Reporting',
    objectTypes: [
      {
        name: 'Report',
        actions: ['Created', 'Run', 'Scheduled', 'Exported to CSV, Emailed', 'Shared', 'Deleted'],
      },
      {
        name: 'Dashboard',
        actions: ['Created', 'Widget Added', 'Shared', 'Deleted'],
      },
      {
        name: 'Export Job',
        actions: ['Requested', 'Completed', 'Failed', 'Downloaded', 'Expired'],
      },
      {
        name: 'Activity Log',
        actions: ['Viewed', 'Filtered', 'Exported', 'Retention Changed'],
      },
    ],
  },
  {
    name: 'Data Retention',
    objectTypes: [
      {
        name: 'Retention Policy',
        actions: ['Created', 'Period Changed', 'Applied', 'Suspended', 'Deleted'],
      },
      {
        name: 'Deletion Job',
        actions: ['Scheduled', 'Started', 'Completed', 'Partially Failed', 'Cancelled'],
      },
      {
        name: 'Legal Hold',
        actions: ['Placed', 'Custodian Added', 'Extended', 'Released'],
      },
    ],
  },
  {
    name: 'AI Governance',
    objectTypes: [
      {
        name: 'AI Model',
        actions: [
          'Registered',
          'Version Deployed',
          'Risk Tier Changed',
          'Bias Test Failed',
          'Retired',
        ],
      },
      {
        name: 'AI Use Case',
        actions: ['Proposed', 'Approved', 'Rejected', 'Monitoring Alert Raised'],
      },
      {
        name: 'Training Dataset',
        actions: ['Registered', 'Personal Data Flagged', 'Lineage Updated', 'Removed'],
      },
    ],
  },
];

/**
 * Suffixes that turn one base event into further distinct ones when a large data set is asked for
 * (the same event, raised through a different channel). Round robin, then numbered by tenant.
 */
export const EVENT_QUALIFIERS: readonly string[] = [
  ' via API',
  ' via Workflow',
  ' by System',
  ' (Bulk)',
  ' via Integration',
  ' (Scheduled)',
  ' by Administrator',
  ' via Import',
  ' in Sandbox',
  ' via Mobile SDK',
  ' (Retried)',
  ' via SCIM',
];
