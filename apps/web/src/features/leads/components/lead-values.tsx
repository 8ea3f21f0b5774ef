import type { TLeadAttribute } from '@herald/shared/attributes/attributes.schemas';
import type { TLead } from '@herald/shared/leads/leads.schemas';
import { Stack, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { InlineValue } from './inline-value.tsx';
import { attributeLabel } from '../../../lib/attribute-label.ts';

/** The lead's values, one row per attribute it has, in the attributes' order. */
export function LeadValues({
  lead,
  attributes,
  editable,
}: {
  lead: TLead;
  attributes: TLeadAttribute[];
  editable: boolean;
}) {
  const { t } = useTranslation('leads');
  const present = attributes.filter((a) => lead.lead_values.some((v) => v.attribute.id === a.id));
  const removable = editable && lead.lead_values.length > 1;
  return (
    <Table verticalSpacing="sm" aria-label={t('values')}>
      <Table.Tbody>
        {present.map((attribute) => (
          <Table.Tr key={attribute.id}>
            <Table.Th w="30%" scope="row">
              <Text size="sm" c="dimmed" fw={500}>
                {attributeLabel(attribute)}
              </Text>
            </Table.Th>
            <Table.Td>
              <Stack gap={4}>
                {lead.lead_values
                  .filter((v) => v.attribute.id === attribute.id)
                  .map((value) => (
                    <InlineValue key={value.id} value={value} editable={editable} removable={removable} />
                  ))}
              </Stack>
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
