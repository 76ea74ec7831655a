/** Every feature of the console; the router and the left navigation are built from this list. */
import type { Feature } from '../shared/feature';
import { actionLogFeature } from '../features/action-log';
import { clustersFeature } from '../features/clusters';
import { compelChangePasswordFeature } from '../features/compel-change-password';
import { dashboardFeature } from '../features/dashboard';
import { forgotPasswordFeature } from '../features/forgot-password';
import { loginFeature } from '../features/login';
import { mfaFeature } from '../features/mfa';
import { personalInfoFeature } from '../features/personal-info';
import { personalSecurityFeature } from '../features/personal-security';
import { personalSshKeyFeature } from '../features/personal-sshkey';
import { playlogFeature } from '../features/playlog';
import { purchaseFeature } from '../features/purchase';
import { registerFeature } from '../features/register';
import { resetPasswordFeature } from '../features/reset-password';
import { systemLogFeature } from '../features/system-log';
import { teamFeature } from '../features/team';
import { workgroupFeature } from '../features/workgroup';
import { workgroupAdminFeature } from '../features/workgroup-admin';

export const FEATURES: readonly Feature[] = [
  loginFeature,
  mfaFeature,
  compelChangePasswordFeature,
  registerFeature,
  forgotPasswordFeature,
  resetPasswordFeature,
  purchaseFeature,
  playlogFeature,
  dashboardFeature,
  workgroupFeature,
  actionLogFeature,
  workgroupAdminFeature,
  clustersFeature,
  teamFeature,
  systemLogFeature,
  personalInfoFeature,
  personalSecurityFeature,
  personalSshKeyFeature,
];
